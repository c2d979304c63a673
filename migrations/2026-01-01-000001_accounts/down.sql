DROP TABLE email_links;
DROP TABLE api_tokens;
DROP TABLE users;
