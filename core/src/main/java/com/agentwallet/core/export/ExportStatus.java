package com.agentwallet.core.export;

import com.agentwallet.core.common.WireNamed;

/** {@code pending → ready | failed}: a job waits for the generator, which writes its file or gives up. */
public enum ExportStatus implements WireNamed {
    PENDING, READY, FAILED;

    public static ExportStatus fromWire(String name, String param) {
        return WireNamed.parse(ExportStatus.class, name, param);
    }
}
