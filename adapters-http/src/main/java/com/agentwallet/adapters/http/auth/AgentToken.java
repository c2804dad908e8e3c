package com.agentwallet.adapters.http.auth;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An endpoint an agent's session token may call, for its own wallet only; a token calling any other
 * endpoint is refused with 403 naming the endpoint's {@link RequiresRole}. The token must be live
 * (not rotated, not expired), or the request is a 401, except where {@link #checkedByPolicy}: there
 * the payment's first policy check judges it, and a dead token is a recorded, blocked attempt.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AgentToken {
    boolean checkedByPolicy() default false;
}
