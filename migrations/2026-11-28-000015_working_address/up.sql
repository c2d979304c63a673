-- A working mail address (design.md section 15: open entry "optionally gated by ... a working
-- mail address"): the first time an account shows that mail reaches it — it spends a mailed
-- sign-in or sign-up link, opens a mailed play or invitation link, or moves by mail.
ALTER TABLE users ADD COLUMN address_works_since timestamptz;
UPDATE users u SET address_works_since = (
    SELECT min(l.used_at) FROM email_links l WHERE l.user_id = u.id AND l.used_at IS NOT NULL
);
ALTER TABLE competitions ADD COLUMN require_working_address boolean NOT NULL DEFAULT false;
