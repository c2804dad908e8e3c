--liquibase formatted sql

--changeset agent-wallet:008-escrow-receiver-org
-- An escrow to a wallet of this service has two parties: the organisation that sends it and the
-- one whose wallet receives it. The receiver's organisation is kept on the row, so that each party
-- lists its escrows from an index, and an agent lists the escrows its wallet receives.
ALTER TABLE escrows ADD COLUMN receiver_org text REFERENCES organisations (id);
UPDATE escrows e SET receiver_org = w.org_id FROM wallets w WHERE w.id = e.receiver_wallet;
CREATE INDEX escrows_receiver_org ON escrows (receiver_org, created_at DESC, id DESC) WHERE receiver_org IS NOT NULL;
CREATE INDEX escrows_receiver_wallet ON escrows (receiver_wallet, created_at DESC, id DESC)
    WHERE receiver_wallet IS NOT NULL;
