package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.json.SnakeCaseKeys;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Timestamps;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.UriInfo;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The query of a list request, under the same rules as bodies: camelCase or snake_case names, an
 * unknown or repeated parameter is a 400 naming it, and {@code limit}/{@code cursor} are the pages.
 */
final class QueryParams {
    private final Map<String, String> values;

    private QueryParams(Map<String, String> values) {
        this.values = values;
    }

    static QueryParams of(UriInfo uri, String... allowed) {
        Set<String> names = Set.of(allowed);
        Map<String, String> values = new HashMap<>();
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            String name = SnakeCaseKeys.snakeCase(parameter.getKey());
            if (!names.contains(name) && !name.equals("limit") && !name.equals("cursor")) {
                throw ApiException.validation(parameter.getKey(), "Unknown query parameter '" + parameter.getKey()
                        + "'; allowed here: " + String.join(", ", allowed) + (allowed.length == 0 ? "" : ", ")
                        + "limit, cursor");
            }
            if (parameter.getValue().size() != 1 || values.put(name, parameter.getValue().get(0)) != null) {
                throw ApiException.validation(name, "The query parameter '" + name + "' is given more than once");
            }
        }
        return new QueryParams(values);
    }

    Optional<String> get(String name) {
        return Optional.ofNullable(values.get(name));
    }

    Optional<Instant> timestamp(String name) {
        return get(name).map(text -> Timestamps.parse(text, name));
    }

    PageRequest page() {
        int limit = get("limit").map(text -> {
            try {
                return Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw ApiException.validation("limit", "'limit' must be an integer between 1 and " + PageRequest.MAX_LIMIT);
            }
        }).orElse(PageRequest.DEFAULT_LIMIT);
        return new PageRequest(limit, get("cursor"));
    }
}
