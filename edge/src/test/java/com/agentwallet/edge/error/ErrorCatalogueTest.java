package com.agentwallet.edge.error;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ErrorCatalogueTest {
    @Test
    void thePageHasOneEntryPerCodeWithItsStatus() {
        String page = ErrorCatalogue.html();

        assertThat(ErrorCatalogue.entries()).hasSize(ErrorCatalogue.codes().size());
        for (ErrorCatalogue.Entry entry : ErrorCatalogue.entries()) {
            assertThat(page).containsOnlyOnce("id=\"" + entry.code() + "\"");
            assertThat(entry.status()).as(entry.code()).isBetween(400, 599);
            assertThat(entry.meaning()).as(entry.code()).isNotBlank();
        }
        assertThat(page).startsWith("<!DOCTYPE html>").contains("<td>429</td>");
    }

    @Test
    void thePageEscapesWhatItQuotes() {
        assertThat(ErrorCatalogue.html()).contains("expected_proof").contains("agent_id")
                .contains("the wallet&#39;s spending policy").doesNotContain("wallet's spending");
    }

    @Test
    void aLinkIsTheBaseAndTheCode() {
        assertThat(ErrorDocs.SERVED.link("not_found")).isEqualTo("/docs/errors#not_found");
        assertThat(ErrorDocs.of(Optional.of("https://docs.example.com/errors#")).link("invalid_state"))
                .isEqualTo("https://docs.example.com/errors#invalid_state");
        assertThat(ErrorDocs.of(Optional.of("/api/errors.html#")).link("invalid_state"))
                .isEqualTo("/api/errors.html#invalid_state");
        assertThat(ErrorDocs.of(Optional.empty())).isEqualTo(ErrorDocs.SERVED);
        assertThat(ErrorDocs.of(Optional.of(" "))).isEqualTo(ErrorDocs.SERVED);
    }

    @Test
    void aBaseThatIsNeitherAWebUrlNorAPathIsRefused() {
        for (String base : new String[] {"ftp://example.com/errors#", "docs/errors#", "//example.com/errors#",
                "https://exa mple.com/#", "javascript:alert(1)//"}) {
            assertThatThrownBy(() -> new ErrorDocs(base)).as(base).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aCodeOutsideTheCatalogueHasNoLink() {
        assertThatThrownBy(() -> ErrorDocs.SERVED.link("teapot")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("teapot");
        assertThat(ErrorJson.of(ErrorDocs.SERVED, "not_found", "No such endpoint", "req_1").error().docs())
                .isEqualTo("/docs/errors#not_found");
    }
}
