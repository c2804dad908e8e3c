package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.Cursor;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.policy.FieldChange;
import com.agentwallet.core.policy.PolicyAuditEntry;
import com.agentwallet.core.port.PolicyAuditLog;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

final class JdbiPolicyAudit implements PolicyAuditLog {
    private static final RowMapper<PolicyAuditEntry> ROW = (rs, ctx) -> new PolicyAuditEntry(
            new PolicyId(rs.getString("policy_id")), new OrgId(rs.getString("org_id")), rs.getLong("version"),
            WireNamed.parse(PolicyAuditEntry.Action.class, rs.getString("action"), "action"),
            new Actor(rs.getString("actor")), Rows.instant(rs, "at"), changes(rs.getString("changes")));

    private final Handle handle;

    JdbiPolicyAudit(Handle handle) {
        this.handle = handle;
    }

    @Override
    public void append(PolicyAuditEntry entry) {
        List<Map<String, Object>> changes = entry.changes().stream().map(change -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("field", change.field());
            json.put("old", change.oldValue());
            json.put("new", change.newValue());
            return json;
        }).toList();
        handle.createUpdate("INSERT INTO policy_audit (policy_id, org_id, version, action, actor, at, changes) "
                        + "VALUES (:policy, :org, :version, :action, :actor, :at, CAST(:changes AS jsonb))")
                .bind("policy", entry.policyId().value())
                .bind("org", entry.orgId().value())
                .bind("version", entry.version())
                .bind("action", entry.action().wireName())
                .bind("actor", entry.actor().id())
                .bind("at", Rows.timestamp(entry.at()))
                .bind("changes", Json.write(changes))
                .execute();
    }

    /** Newest first by (time, version); the cursor carries that key. */
    @Override
    public Page<PolicyAuditEntry> list(OrgId orgId, PolicyId policyId, PageRequest page) {
        Optional<Cursor> cursor = page.cursor().map(Cursor::decode);
        Query query = handle.createQuery("SELECT * FROM policy_audit WHERE org_id = :org AND policy_id = :policy"
                        + (cursor.isPresent() ? " AND (at, version) < (:cursorAt, :cursorVersion)" : "")
                        + " ORDER BY at DESC, version DESC LIMIT :limit")
                .bind("org", orgId.value())
                .bind("policy", policyId.value())
                .bind("limit", page.limit() + 1);
        cursor.ifPresent(c -> query.bind("cursorAt", Rows.timestamp(c.at()))
                .bind("cursorVersion", Long.parseLong(c.id())));
        List<PolicyAuditEntry> rows = query.map(ROW).list();
        boolean more = rows.size() > page.limit();
        List<PolicyAuditEntry> data = more ? rows.subList(0, page.limit()) : rows;
        PolicyAuditEntry last = more ? data.get(data.size() - 1) : null;
        return new Page<>(data, more, more
                ? Optional.of(new Cursor(last.at(), Long.toString(last.version())).encode()) : Optional.empty());
    }

    private static List<FieldChange> changes(String json) {
        return Json.readListOfMaps(json).stream()
                .map(change -> new FieldChange((String) change.get("field"), change.get("old"), change.get("new")))
                .toList();
    }
}
