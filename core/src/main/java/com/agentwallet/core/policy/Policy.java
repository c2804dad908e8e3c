package com.agentwallet.core.policy;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/** A named spending policy of an organisation; {@code version} counts its changes. */
public record Policy(
        PolicyId id,
        OrgId orgId,
        String name,
        PolicyRules rules,
        long version,
        Instant createdAt,
        Instant updatedAt) {

    public static final int MAX_NAME_LENGTH = 200;

    public Policy {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireName(name);
        requireNonNull(rules, "rules is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(updatedAt, "updatedAt is null");
    }

    public static String requireName(String name) {
        ValidationException.check(name != null && !name.isBlank() && name.length() <= MAX_NAME_LENGTH, "name",
                "'name' must be 1 to " + MAX_NAME_LENGTH + " characters");
        return name;
    }

    /** Name and rules as wire-named fields: what an audit diff compares. */
    public Map<String, Object> fields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", name);
        fields.putAll(rules.fields());
        return fields;
    }
}
