package com.agentwallet.adapters.http;

import com.agentwallet.adapters.http.auth.BearerAuthentication;
import com.agentwallet.adapters.http.auth.RoleCheck;
import com.agentwallet.adapters.http.error.ErrorMapper;
import com.agentwallet.adapters.http.json.ApiJson;
import com.agentwallet.adapters.http.json.SnakeCaseKeys;
import com.agentwallet.adapters.http.limit.RateLimits;
import com.agentwallet.adapters.http.resource.EscrowResource;
import com.agentwallet.adapters.http.resource.PaymentResource;
import com.agentwallet.adapters.http.resource.PolicyResource;
import com.agentwallet.adapters.http.resource.QueryFree;
import com.agentwallet.adapters.http.resource.RecipientResource;
import com.agentwallet.adapters.http.resource.TransactionResource;
import com.agentwallet.adapters.http.resource.WalletResource;
import com.agentwallet.adapters.http.resource.WebhookResource;
import com.agentwallet.adapters.http.session.SessionTokens;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.webhook.WebhookService;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jersey.setup.JerseyEnvironment;

import static java.util.Objects.requireNonNull;

/** The /v1 API: its resources, and the filters and mapper every request passes through. */
public final class V1Api {
    public static final String URL_PATTERN = "/v1/*";

    /** What the API is built from: the use cases, session tokens, rate limits, the proxy rule and the body limit. */
    public record Parts(WalletService wallets, PaymentService payments, EscrowService escrows, PolicyService policies,
                        WebhookService webhooks, ExportService exports, ApiKeyService apiKeys,
                        SessionTokens sessionTokens, RateLimits rateLimits, IdGenerator ids,
                        boolean trustForwardedProto, long maxRequestBytes) {
        public Parts {
            requireNonNull(wallets, "wallets is null");
            requireNonNull(payments, "payments is null");
            requireNonNull(escrows, "escrows is null");
            requireNonNull(policies, "policies is null");
            requireNonNull(webhooks, "webhooks is null");
            requireNonNull(exports, "exports is null");
            requireNonNull(apiKeys, "apiKeys is null");
            requireNonNull(sessionTokens, "sessionTokens is null");
            requireNonNull(rateLimits, "rateLimits is null");
            requireNonNull(ids, "ids is null");
        }
    }

    private V1Api() {
    }

    /** Registers everything on the server's Jersey, whose mapper is given the wire's JSON rules. */
    public static void register(JerseyEnvironment jersey, ObjectMapper mapper, Parts parts) {
        ApiJson.configure(mapper);
        jersey.setUrlPattern(URL_PATTERN);
        Edge edge = new Edge(parts.ids(), parts.rateLimits(), parts.trustForwardedProto(), parts.maxRequestBytes());
        jersey.register(edge);
        jersey.register(new BearerAuthentication(parts.apiKeys(), parts.sessionTokens(), edge));
        jersey.register(new RoleCheck(parts.wallets()::isSessionLive));
        jersey.register(new QueryFree());
        jersey.register(new SnakeCaseKeys(mapper));
        jersey.register(new ErrorMapper());
        jersey.register(new WalletResource(parts.wallets(), parts.payments(), parts.sessionTokens()));
        PaymentResource payments = new PaymentResource(parts.payments(), parts.sessionTokens());
        jersey.register(payments);
        jersey.register(new EscrowResource(parts.escrows(), payments));
        jersey.register(new PolicyResource(parts.policies()));
        jersey.register(new RecipientResource(parts.policies()));
        jersey.register(new TransactionResource(parts.payments(), parts.exports()));
        jersey.register(new WebhookResource(parts.webhooks()));
    }
}
