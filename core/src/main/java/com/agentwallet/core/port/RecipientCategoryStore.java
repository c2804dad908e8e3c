package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;

import java.util.Optional;
import java.util.Set;

/** The organisation's map of recipient to category, which {@code blocked_categories} is checked against. */
public interface RecipientCategoryStore {
    Optional<String> categoryOf(OrgId orgId, String recipient);

    void put(OrgId orgId, String recipient, String category);

    /** The recipients the organisation put in any of {@code categories}. */
    Set<String> recipientsIn(OrgId orgId, Set<String> categories);
}
