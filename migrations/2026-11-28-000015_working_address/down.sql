ALTER TABLE competitions DROP COLUMN require_working_address;
ALTER TABLE users DROP COLUMN address_works_since;
