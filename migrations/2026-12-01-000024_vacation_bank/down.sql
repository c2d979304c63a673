ALTER TABLE users ADD COLUMN vacation_used_seconds bigint NOT NULL DEFAULT 0;

-- The days used that give the same balance under the old count (at most 30 accrued in all).
UPDATE users
SET vacation_used_seconds = greatest(0,
        least(30, 7 + floor(extract(epoch FROM (vacation_bank_at - created_at)) / 86400 / 7))::bigint
        * 86400 - vacation_bank_seconds)
WHERE vacation_bank_at IS NOT NULL;

ALTER TABLE users DROP COLUMN vacation_bank_seconds, DROP COLUMN vacation_bank_at;
