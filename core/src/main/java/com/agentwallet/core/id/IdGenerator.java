package com.agentwallet.core.id;

import java.util.function.Function;

/** Makes new ids. Injected, so tests and the simulator get the same ids from the same seed. */
public interface IdGenerator {

    /** A new random part: {@link TypedId#RANDOM_LENGTH} base62 characters. */
    String randomPart();

    default <I extends TypedId> I next(String prefix, Function<String, I> constructor) {
        return constructor.apply(prefix + randomPart());
    }

    default OrgId org() {
        return next(OrgId.PREFIX, OrgId::new);
    }

    default WalletId wallet() {
        return next(WalletId.PREFIX, WalletId::new);
    }

    default PolicyId policy() {
        return next(PolicyId.PREFIX, PolicyId::new);
    }

    default TxId tx() {
        return next(TxId.PREFIX, TxId::new);
    }

    default EscrowId escrow() {
        return next(EscrowId.PREFIX, EscrowId::new);
    }

    default WebhookId webhook() {
        return next(WebhookId.PREFIX, WebhookId::new);
    }

    default EventId event() {
        return next(EventId.PREFIX, EventId::new);
    }

    default ExportId export() {
        return next(ExportId.PREFIX, ExportId::new);
    }
}
