package com.agentwallet.adapters.http.auth;

import com.agentwallet.adapters.http.resource.EscrowResource;
import com.agentwallet.adapters.http.resource.PaymentResource;
import com.agentwallet.adapters.http.resource.PolicyResource;
import com.agentwallet.adapters.http.resource.RecipientResource;
import com.agentwallet.adapters.http.resource.TransactionResource;
import com.agentwallet.adapters.http.resource.WalletResource;
import com.agentwallet.adapters.http.resource.WebhookResource;
import com.agentwallet.core.auth.Role;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HttpMethod;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** No endpoint is open by omission, and reads need no more than a viewer, as the contract's ladder says. */
class RequiresRoleTest {
    private static final List<Class<?>> RESOURCES = List.of(WalletResource.class, PaymentResource.class,
            EscrowResource.class, PolicyResource.class, RecipientResource.class, TransactionResource.class,
            WebhookResource.class);

    @Test
    void everyEndpointNamesItsLowestRole() {
        List<Method> endpoints = endpoints().toList();

        assertThat(endpoints).hasSizeGreaterThan(40);
        assertThat(endpoints).allSatisfy(method -> assertThat(method.getAnnotation(RequiresRole.class))
                .as(method.toString()).isNotNull());
    }

    @Test
    void everyReadIsOpenToViewers() {
        assertThat(endpoints().filter(method -> method.isAnnotationPresent(GET.class)))
                .allSatisfy(method -> assertThat(method.getAnnotation(RequiresRole.class).value())
                        .as(method.toString()).isEqualTo(Role.VIEWER));
    }

    /** The contract's list of what an agent's token may call: its wallet's reads, its payments and escrows. */
    @Test
    void exactlyTheContractsAgentEndpointsAcceptASessionToken() {
        List<String> open = endpoints().filter(method -> method.isAnnotationPresent(AgentToken.class))
                .map(method -> method.getDeclaringClass().getSimpleName() + "." + method.getName()
                        + (method.getAnnotation(AgentToken.class).checkedByPolicy() ? " (policy)" : ""))
                .sorted().toList();

        assertThat(open).containsExactly("EscrowResource.complete", "EscrowResource.dispute", "EscrowResource.get",
                "EscrowResource.list", "EscrowResource.lock (policy)", "PaymentResource.get",
                "PaymentResource.pay (policy)", "TransactionResource.get", "WalletResource.get",
                "WalletResource.transactions");
    }

    private static Stream<Method> endpoints() {
        return RESOURCES.stream().flatMap(resource -> Arrays.stream(resource.getDeclaredMethods()))
                .filter(method -> Arrays.stream(method.getAnnotations())
                        .anyMatch(annotation -> annotation.annotationType().isAnnotationPresent(HttpMethod.class)));
    }
}
