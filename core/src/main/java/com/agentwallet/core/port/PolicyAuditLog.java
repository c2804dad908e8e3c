package com.agentwallet.core.port;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.policy.PolicyAuditEntry;

public interface PolicyAuditLog {
    void append(PolicyAuditEntry entry);

    /** The policy's history, newest first. */
    Page<PolicyAuditEntry> list(OrgId orgId, PolicyId policyId, PageRequest page);
}
