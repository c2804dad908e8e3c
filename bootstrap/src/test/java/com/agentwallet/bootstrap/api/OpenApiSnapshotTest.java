package com.agentwallet.bootstrap.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The released contract of /v1 is the snapshot {@code docs/openapi-v1.json}: the document the server
 * serves must equal it, so a change to the API's description cannot pass unnoticed, and the
 * changelog's newest entry must name the snapshot's {@code info.version}, so a new snapshot comes with
 * its entry in {@code CHANGELOG.md}.
 */
class OpenApiSnapshotTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Relative to the bootstrap module, where the build runs its tests. */
    private static final Path SNAPSHOT = Path.of("..", "docs", "openapi-v1.json");
    private static final Path CHANGELOG = Path.of("..", "CHANGELOG.md");
    private static final int MAX_REPORTED = 40;

    @Test
    void theServedDocumentIsTheReleasedSnapshot() throws IOException {
        ApiResponse answer = ApiServer.shared().client().call("GET", "/openapi.json").send();
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);

        List<String> differences = differences(JSON.readTree(SNAPSHOT.toFile()), answer.json());

        assertThat(differences).withFailMessage(() -> "GET /v1/openapi.json differs from the released contract "
                + "docs/openapi-v1.json at " + differences.size() + " place(s):\n  "
                + String.join("\n  ", differences.subList(0, Math.min(MAX_REPORTED, differences.size())))
                + "\nIf the change to /v1 is meant: set info.version in adapters-http/src/main/resources/openapi.json "
                + "to today's date, copy that file to docs/openapi-v1.json, and add an entry under that date to "
                + "CHANGELOG.md saying what changed (marked [BREAKING] when existing clients break).").isEmpty();
    }

    @Test
    void theChangelogsNewestEntryNamesTheSnapshotsVersion() throws IOException {
        String version = JSON.readTree(SNAPSHOT.toFile()).path("info").path("version").asText();
        assertThat(version).as("info.version of docs/openapi-v1.json").isNotBlank();

        List<String> entries = Files.readAllLines(CHANGELOG, StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith("## ")).toList();

        assertThat(entries).as("the entries (## headings) of CHANGELOG.md").isNotEmpty();
        assertThat(entries.get(0)).withFailMessage("CHANGELOG.md's newest entry is '%s', but docs/openapi-v1.json is "
                + "version %s: add an entry '## %s' at the top of CHANGELOG.md saying what changed in /v1",
                entries.get(0), version, version).contains(version);
    }

    @Test
    void aDifferenceIsReportedByItsPath() throws IOException {
        JsonNode snapshot = JSON.readTree("{\"info\":{\"version\":\"1\"},\"paths\":{\"/a~b\":{\"get\":{}},\"/c\":{}},"
                + "\"tags\":[\"x\",\"y\"]}");
        JsonNode served = JSON.readTree("{\"info\":{\"version\":\"2\"},\"paths\":{\"/a~b\":{\"get\":{}},\"/d\":{}},"
                + "\"tags\":[\"x\"]}");

        assertThat(differences(snapshot, served)).containsExactly(
                "/info/version: \"1\" in the snapshot, \"2\" served",
                "/paths/~1c: only in the snapshot",
                "/paths/~1d: only served",
                "/tags/1: only in the snapshot");
        assertThat(differences(snapshot, snapshot.deepCopy())).isEmpty();
    }

    /** Every place where the two documents differ, as JSON pointers with what each side holds. */
    static List<String> differences(JsonNode snapshot, JsonNode served) {
        List<String> differences = new ArrayList<>();
        compare("", snapshot, served, differences);
        return differences;
    }

    private static void compare(String pointer, JsonNode snapshot, JsonNode served, List<String> differences) {
        if (snapshot.isObject() && served.isObject()) {
            TreeSet<String> names = new TreeSet<>();
            snapshot.fieldNames().forEachRemaining(names::add);
            served.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                compareChild(pointer + "/" + name.replace("~", "~0").replace("/", "~1"), snapshot.get(name),
                        served.get(name), differences);
            }
        } else if (snapshot.isArray() && served.isArray()) {
            for (int i = 0; i < Math.max(snapshot.size(), served.size()); i++) {
                compareChild(pointer + "/" + i, snapshot.get(i), served.get(i), differences);
            }
        } else if (!snapshot.equals(served)) {
            differences.add((pointer.isEmpty() ? "/" : pointer) + ": " + abbreviate(snapshot) + " in the snapshot, "
                    + abbreviate(served) + " served");
        }
    }

    private static void compareChild(String pointer, JsonNode snapshot, JsonNode served, List<String> differences) {
        if (served == null) {
            differences.add(pointer + ": only in the snapshot");
        } else if (snapshot == null) {
            differences.add(pointer + ": only served");
        } else {
            compare(pointer, snapshot, served, differences);
        }
    }

    private static String abbreviate(JsonNode node) {
        String text = node.toString();
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
