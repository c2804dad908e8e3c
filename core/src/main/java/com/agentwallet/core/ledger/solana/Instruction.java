package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.ledger.LedgerAddress;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** One instruction of a Solana transaction: the program it calls, the accounts it names, its data. */
public record Instruction(LedgerAddress program, List<AccountMeta> accounts, byte[] data) {
    public Instruction {
        requireNonNull(program, "program is null");
        accounts = List.copyOf(accounts);
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }
}
