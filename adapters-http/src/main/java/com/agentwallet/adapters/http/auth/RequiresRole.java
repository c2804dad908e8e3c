package com.agentwallet.adapters.http.auth;

import com.agentwallet.core.auth.Role;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The lowest role an endpoint needs; every resource method carries one (a test checks that). */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RequiresRole {
    Role value();
}
