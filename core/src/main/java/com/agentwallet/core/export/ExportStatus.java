package com.agentwallet.core.export;

import com.agentwallet.core.common.WireNamed;

/**
 * {@code pending → ready → expired}, or {@code pending → failed}: a job waits for a generator, which
 * writes its file or gives up; a ready file is kept for the retention, then deleted and the job
 * expired.
 */
public enum ExportStatus implements WireNamed {
    PENDING, READY, FAILED, EXPIRED;

    public static ExportStatus fromWire(String name, String param) {
        return WireNamed.parse(ExportStatus.class, name, param);
    }
}
