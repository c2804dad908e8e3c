/*
 * Account layouts (version 2), instruction tags and error codes of the agent-wallet program.
 * layout.json is the reference; test/layout.test.mjs checks every size, offset, tag and kind here against it.
 */
#ifndef AGENT_WALLET_LAYOUT_H
#define AGENT_WALLET_LAYOUT_H

#include "sol.h"

#define STATIC_ASSERT(cond, name) typedef char static_assert_##name[(cond) ? 1 : -1]

/*
 * Custom error codes: exactly com.agentwallet.core.ledger.ProgramError. Codes 1 to 9 carry the
 * names of the contract's violation rules.
 */
enum {
    ERR_SESSION_TOKEN = 1,
    ERR_MAX_PER_TX = 2,
    ERR_ALLOWED_RECIPIENTS = 3,
    ERR_BLOCKED_CATEGORY = 4,
    ERR_MAX_PER_DAY = 5,
    ERR_MAX_PER_MONTH = 6,
    ERR_VELOCITY_CAP = 7,
    ERR_POLICY_EXPIRED = 8,
    ERR_REQUIRE_CO_SIGN = 9,
    ERR_CO_SIGNATURE_INVALID = 10,
    ERR_WALLET_NOT_ACTIVE = 11,
    ERR_INSUFFICIENT_FUNDS = 12,
    ERR_ACCOUNT_NOT_FOUND = 13,
    ERR_ACCOUNT_MISMATCH = 14,
    ERR_ESCROW_NOT_OPEN = 15,
    ERR_PROOF_MISMATCH = 16,
    ERR_ESCROW_NOT_DUE = 17,
    ERR_INVALID_ARGUMENT = 18,
    ERR_ESCROW_DISPUTED = 19,
    ERR_ESCROW_EXPIRED = 20,
    ERR_STALE_WRITE = 21,
};

/* Solana encodes ProgramError::Custom(n) as n itself (n != 0, below the builtin range). */
#define CUSTOM(code) ((u64)(code))

enum {
    IX_INIT_TREASURY = 0,
    IX_CREATE_WALLET = 1,
    IX_SET_SESSION_KEY = 2,
    IX_WRITE_POLICY = 3,
    IX_WRITE_POLICY_ENTRIES = 4,
    IX_UPDATE_WALLET = 5,
    IX_FUND = 6,
    IX_WITHDRAW = 7,
    IX_PAY = 8,
    IX_ESCROW_LOCK = 9,
    IX_ESCROW_RELEASE = 10,
    IX_ESCROW_DISPUTE = 11,
    IX_ESCROW_RESOLVE = 12,
    IX_ESCROW_REFUND = 13,
    IX_CONFIGURE = 14,
    IX_SET_AUTHORITY = 15,
};

/*
 * Instruction data: offset of each field (byte 0 is the tag) and the size of the data without a trailing
 * list of entries, as layout.json describes them; test/layout.test.mjs checks each against it.
 */
#define DATA_INIT_TREASURY_SIZE 67
#define DATA_INIT_TREASURY_BUMP 1
#define DATA_INIT_TREASURY_TOKEN_BUMP 2
#define DATA_INIT_TREASURY_ORG_HASH 3
#define DATA_INIT_TREASURY_AUTHORITY 35
#define DATA_CREATE_WALLET_SIZE 35
#define DATA_CREATE_WALLET_BUMP 1
#define DATA_CREATE_WALLET_TOKEN_BUMP 2
#define DATA_CREATE_WALLET_AGENT_HASH 3
#define DATA_SET_SESSION_KEY_SIZE 49
#define DATA_SET_SESSION_KEY_SESSION_KEY 1
#define DATA_SET_SESSION_KEY_EXPIRES_AT 33
#define DATA_SET_SESSION_KEY_SEQUENCE 41
#define DATA_WRITE_POLICY_SIZE 126
#define DATA_WRITE_POLICY_BUMP 1
#define DATA_WRITE_POLICY_POLICY_HASH 2
#define DATA_WRITE_POLICY_SEQUENCE 34
#define DATA_WRITE_POLICY_FLAGS 42
#define DATA_WRITE_POLICY_VELOCITY_CAP 46
#define DATA_WRITE_POLICY_MAX_PER_TX 50
#define DATA_WRITE_POLICY_MAX_PER_DAY 58
#define DATA_WRITE_POLICY_MAX_PER_MONTH 66
#define DATA_WRITE_POLICY_EXPIRY 74
#define DATA_WRITE_POLICY_CO_SIGN_THRESHOLD 82
#define DATA_WRITE_POLICY_CO_SIGNER 90
#define DATA_WRITE_POLICY_ALLOWED_COUNT 122
#define DATA_WRITE_POLICY_BLOCKED_COUNT 123
#define DATA_WRITE_POLICY_ENTRIES_IN_DATA 124
#define DATA_WRITE_POLICY_RESERVED 125
#define DATA_WRITE_POLICY_ENTRIES 126
#define DATA_WRITE_POLICY_ENTRIES_SIZE 11
#define DATA_WRITE_POLICY_ENTRIES_SEQUENCE 1
#define DATA_WRITE_POLICY_ENTRIES_START 9
#define DATA_WRITE_POLICY_ENTRIES_COUNT 10
#define DATA_WRITE_POLICY_ENTRIES_ENTRIES 11
#define DATA_UPDATE_WALLET_SIZE 10
#define DATA_UPDATE_WALLET_STATUS 1
#define DATA_UPDATE_WALLET_SEQUENCE 2
#define DATA_FUND_SIZE 9
#define DATA_FUND_AMOUNT 1
#define DATA_WITHDRAW_SIZE 9
#define DATA_WITHDRAW_AMOUNT 1
#define DATA_PAY_SIZE 17
#define DATA_PAY_AMOUNT 1
#define DATA_PAY_COUNTED_AT 9
#define DATA_ESCROW_LOCK_SIZE 116
#define DATA_ESCROW_LOCK_BUMP 1
#define DATA_ESCROW_LOCK_VAULT_BUMP 2
#define DATA_ESCROW_LOCK_ESCROW_HASH 3
#define DATA_ESCROW_LOCK_RECEIVER 35
#define DATA_ESCROW_LOCK_AMOUNT 67
#define DATA_ESCROW_LOCK_DEADLINE 75
#define DATA_ESCROW_LOCK_HAS_EXPECTED_PROOF 83
#define DATA_ESCROW_LOCK_EXPECTED_PROOF 84
#define DATA_ESCROW_RELEASE_SIZE 33
#define DATA_ESCROW_RELEASE_PROOF 1
#define DATA_ESCROW_DISPUTE_SIZE 1
#define DATA_ESCROW_RESOLVE_SIZE 2
#define DATA_ESCROW_RESOLVE_OUTCOME 1
#define DATA_ESCROW_REFUND_SIZE 1
#define DATA_CONFIGURE_SIZE 34
#define DATA_CONFIGURE_BUMP 1
#define DATA_CONFIGURE_REGISTRAR 2
#define DATA_SET_AUTHORITY_SIZE 33
#define DATA_SET_AUTHORITY_AUTHORITY 1
/* One handler reads fund and withdraw. */
STATIC_ASSERT(DATA_FUND_SIZE == DATA_WITHDRAW_SIZE && DATA_FUND_AMOUNT == DATA_WITHDRAW_AMOUNT, fund_withdraw_data);

#define LAYOUT_VERSION 2

enum { KIND_TREASURY = 1, KIND_WALLET = 2, KIND_POLICY = 3, KIND_ESCROW = 4, KIND_CONFIG = 5 };
enum { WALLET_ACTIVE = 0, WALLET_FROZEN = 1, WALLET_ARCHIVED = 2 };
enum { ESCROW_LOCKED = 0, ESCROW_DISPUTED = 1 };
enum { POLICY_INCOMPLETE = 0, POLICY_COMPLETE = 1 };

/* The first 8 bytes of every account of the program. */
typedef struct {
    u8 kind;
    u8 version;
    u8 bump;
    u8 status;
    u8 reserved[4];
} Header;

/*
 * Seeds ["config"]: the program's root of trust, written by its upgrade authority. The registrar is
 * the only key that may open a treasury, and every treasury holds the mint pinned here.
 */
typedef struct {
    Header header;
    SolPubkey registrar;
    SolPubkey mint;
} Config;
STATIC_ASSERT(sizeof(Config) == 72, config_size);

/*
 * Seeds ["treasury", org_hash]. Owns the organisation's USDC token account. Its authority is the
 * organisation's own key (never the fee payer's), which signs every administrative instruction of
 * the organisation and may hand the treasury to another key (set_authority).
 */
typedef struct {
    Header header;
    u8 org_hash[32];
    SolPubkey authority;
    SolPubkey mint;
    SolPubkey token_account;
} Treasury;
STATIC_ASSERT(sizeof(Treasury) == 136, treasury_size);

/*
 * Spend windows in fixed space, as com.agentwallet.adapters.sim.SpendBuckets: per window a ring of
 * buckets (hour 60 x 1 min, day 96 x 15 min, month 30 x 1 day). A bucket holds its epoch (time /
 * bucket length) plus one, 0 meaning never used.
 */
typedef struct {
    u32 epoch_plus_one;
    u32 count;
    u64 amount;
} Bucket;

#define HOUR_BUCKETS 60
#define DAY_BUCKETS 96
#define MONTH_BUCKETS 30
#define HOUR_BUCKET_SECONDS 60ULL
#define DAY_BUCKET_SECONDS 900ULL
#define MONTH_BUCKET_SECONDS 86400ULL

/*
 * Seeds ["agent-wallet", sha256(org_id), sha256(agent_id)] (CONTRACT.md). Owns its USDC token account.
 * admin_sequence is the sequence of the last set_session_key or update_wallet: a write at the same or
 * an older sequence is refused (STALE_WRITE), so a late transaction cannot roll the wallet back.
 */
typedef struct {
    Header header;
    u8 org_hash[32];
    u8 agent_hash[32];
    SolPubkey treasury;
    SolPubkey policy;
    SolPubkey token_account;
    SolPubkey session_key;
    i64 session_expires_at;
    Bucket hour[HOUR_BUCKETS];
    Bucket day[DAY_BUCKETS];
    Bucket month[MONTH_BUCKETS];
    u64 admin_sequence;
} Wallet;
STATIC_ASSERT(sizeof(Wallet) == 3192, wallet_size);
STATIC_ASSERT(__builtin_offsetof(Wallet, session_expires_at) == 200, wallet_session_offset);
STATIC_ASSERT(__builtin_offsetof(Wallet, hour) == 208, wallet_hour_offset);

#define POLICY_MAX_PER_TX (1u << 0)
#define POLICY_MAX_PER_DAY (1u << 1)
#define POLICY_MAX_PER_MONTH (1u << 2)
#define POLICY_VELOCITY_CAP (1u << 3)
#define POLICY_EXPIRY (1u << 4)
#define POLICY_CO_SIGN (1u << 5)
#define POLICY_FLAGS_KNOWN 0x3fu
#define MAX_ALLOWED_RECIPIENTS 32
#define MAX_BLOCKED_RECIPIENTS 64
#define MAX_POLICY_ENTRIES (MAX_ALLOWED_RECIPIENTS + MAX_BLOCKED_RECIPIENTS)

/*
 * Seeds ["policy", org_hash, sha256(policy_id)]. The chain's copy of a policy; categories arrive
 * resolved to the recipients they block. sequence is the write's admin sequence: a rewrite at the same
 * or an older one is refused (STALE_WRITE); its entries follow at the same sequence. entries[0, allowed_count) are the allowed recipients,
 * the next blocked_count the blocked ones. A policy whose entries are not all written yet
 * (status POLICY_INCOMPLETE) refuses every spend.
 */
typedef struct {
    Header header;
    u8 org_hash[32];
    u8 policy_hash[32];
    u64 sequence;
    u32 flags;
    u32 velocity_cap;
    u64 max_per_tx;
    u64 max_per_day;
    u64 max_per_month;
    i64 expiry;
    u64 co_sign_threshold;
    SolPubkey co_signer;
    u8 allowed_count;
    u8 blocked_count;
    u8 entries_written;
    u8 reserved[5];
    SolPubkey entries[MAX_POLICY_ENTRIES];
} Policy;
STATIC_ASSERT(sizeof(Policy) == 3240, policy_size);
STATIC_ASSERT(__builtin_offsetof(Policy, entries) == 168, policy_entries_offset);

/* Seeds ["escrow", wallet, sha256(escrow_id)]. Owns its vault token account. */
typedef struct {
    Header header;
    u8 org_hash[32];
    SolPubkey wallet;
    u8 escrow_hash[32];
    SolPubkey receiver;
    SolPubkey vault;
    u64 amount;
    i64 locked_at;
    i64 deadline;
    u8 has_expected_proof;
    u8 reserved[7];
    u8 expected_proof[32];
    SolPubkey rent_payer;
} Escrow;
STATIC_ASSERT(sizeof(Escrow) == 264, escrow_size);

/* The upgradeable loader's ProgramData account: tag u32 (3), slot u64, upgrade authority Option<Pubkey>. */
#define PROGRAM_DATA_TAG 3
#define PROGRAM_DATA_HAS_AUTHORITY 12
#define PROGRAM_DATA_AUTHORITY 13

/* SPL Token account layouts (the parts read here). */
#define TOKEN_ACCOUNT_SIZE 165
#define TOKEN_MINT_SIZE 82
#define TOKEN_ACCOUNT_MINT 0
#define TOKEN_ACCOUNT_OWNER 32
#define TOKEN_ACCOUNT_AMOUNT 64
#define TOKEN_ACCOUNT_STATE 108
#define TOKEN_STATE_INITIALIZED 1
#define MINT_DECIMALS 44
#define MINT_IS_INITIALIZED 45
#define USDC_DECIMALS 6
#define TOKEN_CLOSE_ACCOUNT 9
#define TOKEN_TRANSFER_CHECKED 12

#endif
