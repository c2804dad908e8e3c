package com.agentwallet.bootstrap;

import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.port.ExportFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class LocalExportFilesTest {
    private static final ExportId ID = new ExportId("exp_0123456789abcdefABCDEF01");

    @TempDir
    Path data;

    @Test
    void aFinishedFileIsInPlaceUnderItsIdAndFormatAndNothingElseIsLeft() throws IOException {
        Path exports = data.resolve("exports");
        String path;
        try (ExportFiles.Output output = new LocalExportFiles(exports).create(ID, ExportFormat.CSV)) {
            output.stream().write("a,b\r\n".getBytes(StandardCharsets.UTF_8));
            assertThat(exports.resolve(ID.value() + ".csv")).doesNotExist();
            path = output.finish();
        }

        assertThat(Path.of(path)).isAbsolute().isEqualTo(exports.resolve(ID.value() + ".csv").toAbsolutePath())
                .hasContent("a,b\r\n");
        try (var files = Files.list(exports)) {
            assertThat(files).hasSize(1);
        }
    }

    @Test
    void anUnfinishedFileIsDiscardedAndAnOlderAttemptIsReplaced() throws IOException {
        LocalExportFiles files = new LocalExportFiles(data);
        try (ExportFiles.Output output = files.create(ID, ExportFormat.JSON)) {
            output.stream().write("[{\"half".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(data).isEmptyDirectory();

        try (ExportFiles.Output first = files.create(ID, ExportFormat.JSON)) {
            first.stream().write("[1]".getBytes(StandardCharsets.UTF_8));
            first.finish();
        }
        try (ExportFiles.Output second = files.create(ID, ExportFormat.JSON)) {
            second.stream().write("[2]".getBytes(StandardCharsets.UTF_8));
            assertThat(Path.of(second.finish())).hasContent("[2]");
        }
    }

    @Test
    void twoAttemptsWritingAtOnceEachWriteTheirOwnPartAndTheLastFinishedIsTheFile() throws IOException {
        LocalExportFiles files = new LocalExportFiles(data);
        try (ExportFiles.Output stalled = files.create(ID, ExportFormat.CSV);
             ExportFiles.Output takenOver = files.create(ID, ExportFormat.CSV)) {
            stalled.stream().write("old,".getBytes(StandardCharsets.UTF_8));
            takenOver.stream().write("new\r\n".getBytes(StandardCharsets.UTF_8));
            stalled.stream().write("half\r\n".getBytes(StandardCharsets.UTF_8));
            assertThat(Path.of(stalled.finish())).hasContent("old,half\r\n");
            assertThat(Path.of(takenOver.finish())).hasContent("new\r\n");
        }
        try (var left = Files.list(data)) {
            assertThat(left).containsExactly(data.resolve(ID.value() + ".csv"));
        }
    }

    @Test
    void deleteRemovesTheFileAndAnyUnfinishedPartAndIsQuietWhenThereIsNone() throws IOException {
        LocalExportFiles files = new LocalExportFiles(data);
        try (ExportFiles.Output unfinished = files.create(ID, ExportFormat.CSV)) {
            unfinished.stream().write("a".getBytes(StandardCharsets.UTF_8));
            unfinished.stream().flush();
            files.delete(ID, ExportFormat.CSV);
            assertThat(data).isEmptyDirectory();
        }
        new LocalExportFiles(data.resolve("never-made")).delete(ID, ExportFormat.CSV);
        assertThat(data.resolve("never-made")).doesNotExist();
    }

    @Test
    void deleteRemovesTheFileAndIsQuietWhenThereIsNone() throws IOException {
        LocalExportFiles files = new LocalExportFiles(data);
        try (ExportFiles.Output output = files.create(ID, ExportFormat.CSV)) {
            output.finish();
        }

        files.delete(ID, ExportFormat.CSV);
        files.delete(ID, ExportFormat.CSV);

        assertThat(data).isEmptyDirectory();
    }
}
