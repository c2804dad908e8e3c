package com.agentwallet.core.port;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.policy.Policy;

import java.util.List;
import java.util.Optional;
import java.util.Set;

public interface PolicyStore {
    void insert(Policy policy);

    Optional<Policy> find(OrgId orgId, PolicyId id);

    /** Reads the policy and locks it until the transaction ends. */
    Optional<Policy> lock(OrgId orgId, PolicyId id);

    void update(Policy policy);

    void delete(OrgId orgId, PolicyId id);

    Page<Policy> list(OrgId orgId, PageRequest page);

    /** The organisation's policies that block any of {@code categories}. */
    List<Policy> blockingAny(OrgId orgId, Set<String> categories);
}
