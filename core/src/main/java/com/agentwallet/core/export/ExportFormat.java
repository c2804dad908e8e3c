package com.agentwallet.core.export;

import com.agentwallet.core.common.WireNamed;

/** The file an export job writes: CSV with a header row and RFC 4180 quoting, or a JSON array. */
public enum ExportFormat implements WireNamed {
    CSV, JSON;

    public static ExportFormat fromWire(String name, String param) {
        return WireNamed.parse(ExportFormat.class, name, param);
    }
}
