//! The storage ports' contract suites (the same ones the in-memory store passes), run against
//! PostgreSQL, each on a database of its own.

use clickwrap_domain::contract;
use clickwrap_domain::contract::support::Stores;
use clickwrap_postgres::test_db::TestDatabase;

macro_rules! contract_test {
    ($name:ident, $suite:path) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let db = TestDatabase::new().await;
            let store = db.store();
            $suite(&Stores::of(&store)).await;
        }
    };
}

contract_test!(tenant_store, contract::tenant_store_contract);
contract_test!(app_store, contract::app_store_contract);
contract_test!(template_store, contract::template_store_contract);
contract_test!(event_store, contract::event_store_contract);
contract_test!(rate_limit_store, contract::rate_limit_store_contract);
contract_test!(key_store, contract::key_store_contract);
contract_test!(ledger_store, contract::ledger_store_contract);
contract_test!(audit_log, contract::audit_log_contract);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delivery_store() {
    let db = TestDatabase::new().await;
    let store = db.store();
    contract::deliveries::delivery_store_contract(&Stores::of(&store), &store).await;
}
