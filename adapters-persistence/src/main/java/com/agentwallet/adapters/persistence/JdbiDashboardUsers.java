package com.agentwallet.adapters.persistence;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.DashboardSessionStore;
import com.agentwallet.core.port.UserStore;
import com.agentwallet.core.user.DashboardSession;
import com.agentwallet.core.user.DashboardUser;
import com.agentwallet.core.user.UserId;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Dashboard users and their sessions, through the pipeline: writes are held back like any other. */
final class JdbiDashboardUsers {

    private JdbiDashboardUsers() {
    }

    static final class Users implements UserStore {
        private static final Pipeline.RowReader<DashboardUser> READ = rs -> new DashboardUser(
                new UserId(rs.getString("id")), new OrgId(rs.getString("org_id")), rs.getString("email"),
                Role.fromWire(rs.getString("role"), "role"), rs.getString("password_hash"),
                rs.getInt("failed_sign_ins"), Rows.optionalInstant(rs, "locked_until"),
                Rows.instant(rs, "password_changed_at"), Rows.instant(rs, "created_at"));
        private final Pipeline pipeline;

        Users(Pipeline pipeline) {
            this.pipeline = pipeline;
        }

        @Override
        public void insert(DashboardUser user) {
            pipeline.send("INSERT INTO dashboard_users (id, org_id, email, role, password_hash, failed_sign_ins, "
                            + "locked_until, password_changed_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    user.id().value(), user.orgId().value(), user.email(), user.role().wireName(), user.passwordHash(),
                    user.failedSignIns(), Rows.timestamp(user.lockedUntil()), Rows.timestamp(user.passwordChangedAt()),
                    Rows.timestamp(user.createdAt()));
        }

        @Override
        public Optional<DashboardUser> find(OrgId orgId, UserId id) {
            return pipeline.one("SELECT * FROM dashboard_users WHERE id = ? AND org_id = ?", READ, id.value(),
                    orgId.value());
        }

        @Override
        public Optional<DashboardUser> lock(OrgId orgId, UserId id) {
            return pipeline.one("SELECT * FROM dashboard_users WHERE id = ? AND org_id = ? FOR NO KEY UPDATE", READ,
                    id.value(), orgId.value());
        }

        @Override
        public Optional<DashboardUser> findByEmail(String email) {
            return pipeline.one("SELECT * FROM dashboard_users WHERE email = ?", READ, email);
        }

        @Override
        public List<DashboardUser> list(OrgId orgId) {
            return pipeline.list("SELECT * FROM dashboard_users WHERE org_id = ? ORDER BY created_at, id", READ,
                    orgId.value());
        }

        @Override
        public void update(DashboardUser user) {
            pipeline.send("UPDATE dashboard_users SET role = ?, password_hash = ?, failed_sign_ins = ?, "
                            + "locked_until = ?, password_changed_at = ? WHERE id = ? AND org_id = ?",
                    user.role().wireName(), user.passwordHash(), user.failedSignIns(),
                    Rows.timestamp(user.lockedUntil()), Rows.timestamp(user.passwordChangedAt()), user.id().value(),
                    user.orgId().value());
        }

        /** Its sessions go with it (ON DELETE CASCADE). */
        @Override
        public void delete(OrgId orgId, UserId id) {
            pipeline.send("DELETE FROM dashboard_users WHERE id = ? AND org_id = ?", id.value(), orgId.value());
        }
    }

    static final class Sessions implements DashboardSessionStore {
        private static final Pipeline.RowReader<DashboardSession> READ = rs -> new DashboardSession(
                rs.getString("token_hash"), new UserId(rs.getString("user_id")), new OrgId(rs.getString("org_id")),
                rs.getString("csrf_token"), Rows.instant(rs, "created_at"), Rows.instant(rs, "expires_at"));
        private final Pipeline pipeline;

        Sessions(Pipeline pipeline) {
            this.pipeline = pipeline;
        }

        @Override
        public void insert(DashboardSession session) {
            pipeline.send("INSERT INTO dashboard_sessions (token_hash, user_id, org_id, csrf_token, created_at, "
                            + "expires_at) VALUES (?, ?, ?, ?, ?, ?)", session.tokenHash(), session.userId().value(),
                    session.orgId().value(), session.csrfToken(), Rows.timestamp(session.createdAt()),
                    Rows.timestamp(session.expiresAt()));
        }

        @Override
        public Optional<DashboardSession> findByTokenHash(String tokenHash) {
            return pipeline.one("SELECT * FROM dashboard_sessions WHERE token_hash = ?", READ, tokenHash);
        }

        @Override
        public void delete(String tokenHash) {
            pipeline.send("DELETE FROM dashboard_sessions WHERE token_hash = ?", tokenHash);
        }

        @Override
        public int deleteAllOf(UserId userId) {
            return pipeline.update("DELETE FROM dashboard_sessions WHERE user_id = ?", userId.value());
        }

        /** Oldest expiry first, through its index; sessions another transaction holds are left to it. */
        @Override
        public int deleteExpired(Instant now, int limit) {
            return pipeline.update("DELETE FROM dashboard_sessions WHERE token_hash IN (SELECT token_hash FROM "
                    + "dashboard_sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED)",
                    Rows.timestamp(now), limit);
        }
    }
}
