-- A certificate PDF is compressed already (its streams are deflated): PostgreSQL's own TOAST
-- compression of it cost a fifth of the database's CPU in a verification and saved almost nothing.
-- EXTERNAL keeps large values out of line, uncompressed.
ALTER TABLE certificates ALTER COLUMN pdf SET STORAGE EXTERNAL;
