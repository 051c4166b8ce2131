DROP TABLE ledger_keys;
DROP TABLE ledger_tree_heads;
DROP TABLE ledger_frontiers;
DROP TABLE ledger_leaves;
DROP FUNCTION clickwrap_guard_ledger_leaf();
DROP TABLE ledger_logs;
