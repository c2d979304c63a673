-- A vacation bank is a balance, capped at 30 days, that keeps accruing a day a week of membership
-- (design.md section 14). Counting the days used over the account's whole life against days
-- accrued capped at 30 in all stopped the bank for good once 30 days had been taken: the balance
-- is kept instead, as it stood at a moment (`vacation_bank_at`), the last vacation's start or
-- end. NULL for an account that never took one: its bank is then the starting days at its creation.
ALTER TABLE users
    ADD COLUMN vacation_bank_seconds bigint,
    ADD COLUMN vacation_bank_at timestamptz;

-- The balance of accounts that took days, as the old count gave it at the start of the vacation
-- under way or now.
UPDATE users
SET vacation_bank_at = coalesce(vacation_since, now()),
    vacation_bank_seconds = greatest(0,
        least(30, 7 + floor(extract(epoch FROM (coalesce(vacation_since, now()) - created_at))
                             / 86400 / 7))::bigint * 86400
        - vacation_used_seconds)
WHERE vacation_used_seconds > 0 OR vacation_since IS NOT NULL;

ALTER TABLE users DROP COLUMN vacation_used_seconds;
