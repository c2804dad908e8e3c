--liquibase formatted sql

--changeset agent-wallet:006-api-key-changes splitStatements:false
-- Every change to an API key (a revocation, or a row removed by hand) is announced on the channel
-- api_key_changed, with the key's hash, when its transaction commits: servers keep live keys in
-- memory and forget one as soon as they hear of it (PERSISTENCE.md, "API keys in memory").
CREATE FUNCTION announce_api_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('api_key_changed', OLD.key_hash);
    RETURN NULL;
END;
$$;

--changeset agent-wallet:006-api-key-changes-trigger
CREATE TRIGGER api_key_changed AFTER UPDATE OR DELETE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION announce_api_key_change();
