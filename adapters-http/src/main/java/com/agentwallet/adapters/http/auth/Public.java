package com.agentwallet.adapters.http.auth;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An endpoint anyone may call without a credential, in place of {@link RequiresRole}: being open is
 * then a visible choice, never an omission. Its path must also be one {@link BearerAuthentication}
 * lets through, since authentication runs before Jersey knows which method a request reaches.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Public {
}
