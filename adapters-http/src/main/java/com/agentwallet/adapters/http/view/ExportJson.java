package com.agentwallet.adapters.http.view;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.export.ExportJob;

/** An export job: its filters, its status and, once ready, how many rows the file holds and when it is deleted. */
public record ExportJson(String object, String id, String status, String format, String walletId, String from,
                         String to, Long rowCount, String createdAt, String completedAt,
                         String expiresAt) {

    public static ExportJson of(ExportJob job) {
        return new ExportJson("export", job.id().value(), job.status().wireName(), job.format().wireName(),
                job.walletId().map(id -> id.value()).orElse(null), job.from().map(Timestamps::format).orElse(null),
                job.to().map(Timestamps::format).orElse(null), job.rowCount().orElse(null),
                Timestamps.format(job.createdAt()), job.completedAt().map(Timestamps::format).orElse(null),
                job.expiresAt().map(Timestamps::format).orElse(null));
    }
}
