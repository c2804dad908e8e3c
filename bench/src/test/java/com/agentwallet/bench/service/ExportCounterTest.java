package com.agentwallet.bench.service;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ExportCounterTest {
    @Test
    void countsBytesAndMarkersAcrossPieces() {
        ExportMeasurement.Counter rows = new ExportMeasurement.Counter("\n");
        feed(rows, "tx_id,amount\ntx_1,0.01\ntx_2,0.01\ntx_3,0.01\n", 5);
        assertThat(rows.matches).isEqualTo(4);
        assertThat(rows.bytes).isEqualTo(43);
    }

    @Test
    void aMarkerSplitBetweenPiecesCountsOnce() {
        ExportMeasurement.Counter ids = new ExportMeasurement.Counter("\"tx_id\"");
        String json = "[{\"tx_id\":\"tx_1\",\"amount\":\"0.01\"},{\"tx_id\":\"tx_2\"},{\"wallet_id\":\"\"tx_\"}]";
        for (int piece = 1; piece <= json.length(); piece++) {
            ExportMeasurement.Counter counter = new ExportMeasurement.Counter("\"tx_id\"");
            feed(counter, json, piece);
            assertThat(counter.matches).as("pieces of %d bytes", piece).isEqualTo(2);
        }
        feed(ids, json, 3);
        assertThat(ids.bytes).isEqualTo(json.length());
    }

    private static void feed(ExportMeasurement.Counter counter, String text, int piece) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        byte[] buffer = new byte[piece + 2];
        for (int from = 0; from < bytes.length; from += piece) {
            int length = Math.min(piece, bytes.length - from);
            System.arraycopy(bytes, from, buffer, 1, length);
            counter.accept(buffer, 1, length);
        }
    }
}
