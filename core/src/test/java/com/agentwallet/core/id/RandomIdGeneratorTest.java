package com.agentwallet.core.id;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class RandomIdGeneratorTest {
    private static final Pattern RANDOM_PART = Pattern.compile("^[0-9A-Za-z]{24}$");

    @Test
    void randomPartsAre24Base62Characters() {
        RandomIdGenerator ids = new RandomIdGenerator(new Random(1));
        for (int i = 0; i < 1_000; i++) {
            assertThat(ids.randomPart()).matches(RANDOM_PART);
        }
    }

    @Test
    void randomPartsUseTheWholeBase62Alphabet() {
        RandomIdGenerator ids = new RandomIdGenerator(new Random(2));
        Set<Character> seen = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            ids.randomPart().chars().forEach(c -> seen.add((char) c));
        }
        assertThat(seen).hasSize(62);
    }

    /**
     * Each character as likely as any other: a byte taken modulo 62 without leaving out those of 248
     * and above would make the first eight characters a quarter more likely than the rest.
     */
    @Test
    void everyCharacterIsEquallyLikely() {
        RandomIdGenerator ids = new RandomIdGenerator(new Random(4));
        Map<Character, Integer> counts = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            ids.randomPart().chars().forEach(c -> counts.merge((char) c, 1, Integer::sum));
        }
        double expected = 20_000 * 24 / 62.0;
        assertThat(counts).hasSize(62);
        assertThat(counts.values()).allSatisfy(count -> assertThat(count / expected).isBetween(0.93, 1.07));
    }

    @Test
    void eachKindOfIdHasItsPrefix() {
        RandomIdGenerator ids = new RandomIdGenerator(new Random(3));
        assertPrefixed(ids.org(), "org_");
        assertPrefixed(ids.wallet(), "wal_");
        assertPrefixed(ids.policy(), "pol_");
        assertPrefixed(ids.tx(), "tx_");
        assertPrefixed(ids.escrow(), "escrow_");
        assertPrefixed(ids.webhook(), "wh_");
        assertPrefixed(ids.event(), "evt_");
        assertPrefixed(ids.export(), "exp_");
        assertPrefixed(ids.next(ApiKeyId.PREFIX, ApiKeyId::new), "key_");
    }

    @Test
    void theSameSeedGivesTheSameIds() {
        assertThat(sequence(new RandomIdGenerator(new Random(42)), TypedId::value))
                .isEqualTo(sequence(new RandomIdGenerator(new Random(42)), TypedId::value));
    }

    @Test
    void differentSeedsGiveDifferentIdsAndOneGeneratorNeverRepeats() {
        List<String> first = sequence(new RandomIdGenerator(new Random(42)), TypedId::value);
        List<String> second = sequence(new RandomIdGenerator(new Random(43)), TypedId::value);
        assertThat(first).doesNotContainAnyElementsOf(second);
        assertThat(new HashSet<>(first)).hasSameSizeAs(first);
    }

    private static List<String> sequence(IdGenerator ids, Function<TypedId, String> value) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            values.add(value.apply(ids.wallet()));
            values.add(value.apply(ids.tx()));
        }
        return values;
    }

    private static void assertPrefixed(TypedId id, String prefix) {
        assertThat(id.value()).startsWith(prefix);
        assertThat(id.value().substring(prefix.length())).matches(RANDOM_PART);
    }
}
