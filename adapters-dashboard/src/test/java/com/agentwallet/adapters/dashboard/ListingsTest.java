package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.escrow.EscrowStatus;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ListingsTest {
    private static final String PATH = "/dashboard/transactions";

    @Test
    void aLinkKeepsTheFiltersThatHaveAValueEncoded() {
        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("wallet_id", "wal_a b&c");
        filters.put("status", "");
        filters.put("type", "payment");
        assertThat(Listings.link(PATH, filters)).isEqualTo(PATH + "?wallet_id=wal_a+b%26c&type=payment");
        assertThat(Listings.link(PATH, Map.of("status", ""))).isEqualTo(PATH);
    }

    @Test
    void theFirstPageWithoutMoreHasNoPagerAndALaterOneLinksBackAndOnWithTheFilters() {
        Page<String> last = new Page<>(List.of("a"), false, Optional.empty());
        assertThat(Listings.pager(last, true, PATH, Map.of(), "transactions")).isEqualTo(Html.EMPTY);

        Page<String> middle = new Page<>(List.of("a"), true, Optional.of("c/ursor="));
        String pager = Listings.pager(middle, false, PATH, Map.of("type", "payment"), "transactions").markup();
        assertThat(pager).contains("aria-label=\"Pages of transactions\"")
                .contains("<a href=\"" + PATH + "?type=payment\">First page</a>")
                .contains("<a href=\"" + PATH + "?type=payment&amp;cursor=c%2Fursor%3D\">Next page</a>");
    }

    @Test
    void theOptionsOfAFilterOfferAnyAndMarkTheChosenOne() {
        String options = Listings.options(EscrowStatus.class, Optional.of(EscrowStatus.DISPUTED)).markup();
        assertThat(options).startsWith("<option value=\"\">any</option>")
                .contains("<option value=\"disputed\" selected>disputed</option>")
                .contains("<option value=\"locked\">locked</option>");
        assertThat(Listings.options(EscrowStatus.class, Optional.empty()).markup())
                .startsWith("<option value=\"\" selected>any</option>");
    }

    @Test
    void anUnknownFilterValueIsAValidationErrorAndABlankOneIsNoFilter() {
        assertThat(Listings.chosen(EscrowStatus.class, " ", "status")).isEmpty();
        assertThat(Listings.chosen(EscrowStatus.class, "refunded", "status")).contains(EscrowStatus.REFUNDED);
        assertThatThrownBy(() -> Listings.chosen(EscrowStatus.class, "gone", "status"))
                .isInstanceOf(ValidationException.class).hasMessageContaining("'status' must be one of");
    }
}
