package com.agentwallet.archfixture.core;

import com.tngtech.archunit.core.domain.JavaClass;

/** Breaks the core rule with a library type (ArchUnit is on the test classpath). */
public final class BadCoreOnLibrary {
    public String nameOf(JavaClass javaClass) {
        return javaClass.getName();
    }
}
