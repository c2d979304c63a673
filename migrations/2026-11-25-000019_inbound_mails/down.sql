DROP TABLE inbound_mails;
