package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.port.OrganisationStore;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

import java.util.List;
import java.util.Optional;

final class JdbiOrganisations implements OrganisationStore {
    private static final RowMapper<Organisation> ROW = (rs, ctx) -> new Organisation(new OrgId(rs.getString("id")),
            rs.getString("name"), Rows.usdc(rs, "balance_micros"), Rows.instant(rs, "created_at"));

    private final Handle handle;

    JdbiOrganisations(Handle handle) {
        this.handle = handle;
    }

    @Override
    public void insert(Organisation organisation) {
        handle.createUpdate("INSERT INTO organisations (id, name, balance_micros, created_at) VALUES (:id, :name, :balance, :at)")
                .bind("id", organisation.id().value())
                .bind("name", organisation.name())
                .bind("balance", organisation.balance().micros())
                .bind("at", Rows.timestamp(organisation.createdAt()))
                .execute();
    }

    @Override
    public Optional<Organisation> find(OrgId id) {
        return select(id, "");
    }

    @Override
    public Optional<Organisation> lock(OrgId id) {
        return select(id, " FOR NO KEY UPDATE");
    }

    @Override
    public void update(Organisation organisation) {
        handle.createUpdate("UPDATE organisations SET name = :name, balance_micros = :balance WHERE id = :id")
                .bind("id", organisation.id().value())
                .bind("name", organisation.name())
                .bind("balance", organisation.balance().micros())
                .execute();
    }

    @Override
    public List<Organisation> list() {
        return handle.createQuery("SELECT * FROM organisations ORDER BY created_at, id").map(ROW).list();
    }

    private Optional<Organisation> select(OrgId id, String suffix) {
        return handle.createQuery("SELECT * FROM organisations WHERE id = :id" + suffix)
                .bind("id", id.value()).map(ROW).findOne();
    }
}
