/*
 * The agent-wallet program: organisation treasuries, agent wallets at program-derived addresses,
 * on-chain spending policies enforced on every payment, and escrow vaults for agent-to-agent
 * payments. docs/PROGRAM.md documents accounts, instructions and error codes.
 *
 * Every handler checks everything before it changes anything, so a refused instruction leaves
 * the chain as it was (and the runtime rolls back anything the transaction did anyway).
 */
#include "sol.h"
#include "layout.h"
#include "windows.h"

static const u8 TOKEN_PROGRAM_ID[32] = {
    0x06, 0xdd, 0xf6, 0xe1, 0xd7, 0x65, 0xa1, 0x93, 0xd9, 0xcb, 0xe1, 0x46, 0xce, 0xeb, 0x79, 0xac,
    0x1c, 0xb4, 0x85, 0xed, 0x5f, 0x5b, 0x37, 0x91, 0x3a, 0x8c, 0xf5, 0x85, 0x7e, 0xff, 0x00, 0xa9};
static const u8 ASSOCIATED_TOKEN_PROGRAM_ID[32] = {
    0x8c, 0x97, 0x25, 0x8f, 0x4e, 0x24, 0x89, 0xf1, 0xbb, 0x3d, 0x10, 0x29, 0x14, 0x8e, 0x0d, 0x83,
    0x0b, 0x5a, 0x13, 0x99, 0xda, 0xff, 0x10, 0x84, 0x04, 0x8e, 0x7b, 0xd8, 0xdb, 0xe9, 0xf8, 0x59};
static const u8 SYSTEM_PROGRAM_ID[32] = {0};
static const u8 UPGRADEABLE_LOADER_ID[32] = {
    0x02, 0xa8, 0xf6, 0x91, 0x4e, 0x88, 0xa1, 0xb0, 0xe2, 0x10, 0x15, 0x3e, 0xf7, 0x63, 0xae, 0x2b,
    0x00, 0xc2, 0xb9, 0x3d, 0x16, 0xc1, 0x24, 0xd2, 0xc0, 0x53, 0x7a, 0x10, 0x04, 0x80, 0x00, 0x00};

static const u8 SEED_CONFIG[] = "config";
static const u8 SEED_TREASURY[] = "treasury";
static const u8 SEED_WALLET[] = "agent-wallet";
static const u8 SEED_POLICY[] = "policy";
static const u8 SEED_ESCROW[] = "escrow";

#define FAIL(code, message)   \
    do {                      \
        sol_log(message);     \
        return CUSTOM(code);  \
    } while (0)

#define TRY(expression)            \
    do {                           \
        u64 result_ = (expression); \
        if (result_ != 0) {        \
            return result_;        \
        }                          \
    } while (0)

/* CPI scratch space in the heap, after the parsed account infos. */
typedef struct {
    SolAccountInfo infos[4];
    SolAccountMeta metas[4];
    u8 data[48];
} Scratch;
#define SCRATCH ((Scratch *)(HEAP_START + 1024))

/* ---------------------------------------------------------------- accounts */

static bool is_program_account(const SolAccountInfo *account, const SolPubkey *program_id, u8 kind, u64 size) {
    if (!key_eq(account->owner, program_id) || account->data_len != size) {
        return false;
    }
    const Header *header = (const Header *)account->data;
    return header->kind == kind && header->version == LAYOUT_VERSION;
}

static bool is_key(const SolAccountInfo *account, const u8 *key) {
    return key_eq(account->key, (const SolPubkey *)key);
}

static bool derives(const SolSignerSeed *seeds, u64 count, const SolPubkey *program_id, const SolPubkey *expected) {
    SolPubkey derived;
    if (sol_create_program_address(seeds, count, program_id, &derived) != 0) {
        return false;
    }
    return key_eq(&derived, expected);
}

/*
 * Whether `expected` is the canonical program address of `seeds` (the last of them the bump): the one
 * find_program_address gives, so that no other bump can open a second account for the same seeds.
 */
static NOINLINE bool derives_canonical(const SolSignerSeed *seeds, u64 count, const SolPubkey *program_id,
                                       const SolPubkey *expected) {
    SolPubkey derived;
    u8 bump;
    if (sol_try_find_program_address(seeds, count - 1, program_id, &derived, &bump) != 0) {
        return false;
    }
    return bump == *seeds[count - 1].addr && key_eq(&derived, expected);
}

static void config_seeds(SolSignerSeed *seeds, const u8 *bump) {
    seeds[0] = (SolSignerSeed){SEED_CONFIG, sizeof(SEED_CONFIG) - 1};
    seeds[1] = (SolSignerSeed){bump, 1};
}

static void treasury_seeds(SolSignerSeed *seeds, const u8 *org_hash, const u8 *bump) {
    seeds[0] = (SolSignerSeed){SEED_TREASURY, sizeof(SEED_TREASURY) - 1};
    seeds[1] = (SolSignerSeed){org_hash, 32};
    seeds[2] = (SolSignerSeed){bump, 1};
}

static void wallet_seeds(SolSignerSeed *seeds, const u8 *org_hash, const u8 *agent_hash, const u8 *bump) {
    seeds[0] = (SolSignerSeed){SEED_WALLET, sizeof(SEED_WALLET) - 1};
    seeds[1] = (SolSignerSeed){org_hash, 32};
    seeds[2] = (SolSignerSeed){agent_hash, 32};
    seeds[3] = (SolSignerSeed){bump, 1};
}

static void policy_seeds(SolSignerSeed *seeds, const u8 *org_hash, const u8 *policy_hash, const u8 *bump) {
    seeds[0] = (SolSignerSeed){SEED_POLICY, sizeof(SEED_POLICY) - 1};
    seeds[1] = (SolSignerSeed){org_hash, 32};
    seeds[2] = (SolSignerSeed){policy_hash, 32};
    seeds[3] = (SolSignerSeed){bump, 1};
}

static void escrow_seeds(SolSignerSeed *seeds, const u8 *wallet, const u8 *escrow_hash, const u8 *bump) {
    seeds[0] = (SolSignerSeed){SEED_ESCROW, sizeof(SEED_ESCROW) - 1};
    seeds[1] = (SolSignerSeed){wallet, 32};
    seeds[2] = (SolSignerSeed){escrow_hash, 32};
    seeds[3] = (SolSignerSeed){bump, 1};
}

/* Whether `account` is the associated token account of `owner` for `mint`, with the given bump. */
static NOINLINE bool is_associated(const SolPubkey *account, const SolPubkey *owner, const SolPubkey *mint,
                                   const u8 *bump) {
    SolSignerSeed seeds[4] = {
        {owner->x, 32}, {TOKEN_PROGRAM_ID, 32}, {mint->x, 32}, {bump, 1}};
    return derives(seeds, 4, (const SolPubkey *)ASSOCIATED_TOKEN_PROGRAM_ID, account);
}

/* An initialized SPL Token account of `mint`; its owner must be `owner` unless that is NULL. */
static NOINLINE bool is_token_account(const SolAccountInfo *account, const SolPubkey *mint, const SolPubkey *owner) {
    if (key_eq(account->owner, (const SolPubkey *)TOKEN_PROGRAM_ID) &&
        account->data_len == TOKEN_ACCOUNT_SIZE && account->data[TOKEN_ACCOUNT_STATE] == TOKEN_STATE_INITIALIZED &&
        key_eq((const SolPubkey *)(account->data + TOKEN_ACCOUNT_MINT), mint)) {
        return owner == NULL || key_eq((const SolPubkey *)(account->data + TOKEN_ACCOUNT_OWNER), owner);
    }
    return false;
}

static u64 token_amount(const SolAccountInfo *account) {
    return *(const u64 *)(account->data + TOKEN_ACCOUNT_AMOUNT);
}

static const SolPubkey *token_owner(const SolAccountInfo *account) {
    return (const SolPubkey *)(account->data + TOKEN_ACCOUNT_OWNER);
}

static i64 now_seconds(void) {
    SolClock clock;
    sol_get_clock_sysvar(&clock);
    return clock.unix_timestamp;
}

/* The rent-exempt minimum: (128 + size) * lamports_per_byte_year * exemption_threshold (an f64). */
static NOINLINE u64 rent_exempt_minimum(u64 size) {
    u64 raw[3];
    sol_get_rent_sysvar(raw);
    u64 base = (128 + size) * raw[0];
    u64 bits = raw[1];
    i64 exponent = (i64)((bits >> 52) & 0x7ff);
    u64 mantissa = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
    i64 shift = 1075 - exponent;
    while (shift > 0 && (mantissa & 1) == 0) {
        mantissa >>= 1;
        shift--;
    }
    u64 scaled = base * mantissa;
    return shift > 0 ? scaled >> shift : scaled << (-shift);
}

/* ---------------------------------------------------------------- CPIs */

static u64 invoke(SolPubkey *program, u64 metas, u64 data_len, const SolSignerSeed *seeds, u64 seeds_len) {
    SolInstruction instruction = {program, SCRATCH->metas, metas, SCRATCH->data, data_len};
    SolSignerSeeds signer = {seeds, seeds_len};
    return sol_invoke_signed_c(&instruction, SCRATCH->infos, (int)metas, &signer, seeds_len > 0 ? 1 : 0);
}

static void cpi_account(u64 index, const SolAccountInfo *account, bool writable, bool signer) {
    SCRATCH->infos[index] = *account;
    SCRATCH->metas[index] = (SolAccountMeta){account->key, writable, signer};
}

/* SPL Token TransferChecked, authorised by a program-derived `authority` and its seeds. */
static NOINLINE u64 transfer_checked(const SolAccountInfo *source, const SolAccountInfo *mint,
                                     const SolAccountInfo *destination, const SolAccountInfo *authority,
                                     const SolSignerSeeds *signer) {
    /* The amount travels in SCRATCH->data[1..9], written by the caller. */
    cpi_account(0, source, true, false);
    cpi_account(1, mint, false, false);
    cpi_account(2, destination, true, false);
    cpi_account(3, authority, false, true);
    SCRATCH->data[0] = TOKEN_TRANSFER_CHECKED;
    SCRATCH->data[9] = USDC_DECIMALS;
    return invoke((SolPubkey *)TOKEN_PROGRAM_ID, 4, 10, signer->addr, signer->len);
}

/*
 * Creates a program account at a PDA. Uses System CreateAccount, or, when someone has already
 * sent lamports to the address (which would make CreateAccount fail forever), tops it up and
 * allocates and assigns it instead.
 */
static NOINLINE u64 create_account(const SolAccountInfo *payer, const SolAccountInfo *account, u64 size,
                                   const SolPubkey *program_id, const SolSignerSeeds *signer) {
    const SolSignerSeed *seeds = signer->addr;
    u64 seeds_len = signer->len;
    u64 minimum = rent_exempt_minimum(size);
    u64 present = *account->lamports;
    SolPubkey *system = (SolPubkey *)SYSTEM_PROGRAM_ID;
    cpi_account(0, payer, true, true);
    cpi_account(1, account, true, true);
    if (present == 0) {
        sol_memset_(SCRATCH->data, 0, 4);
        write_u64(SCRATCH->data + 4, minimum);
        write_u64(SCRATCH->data + 12, size);
        copy32(SCRATCH->data + 20, program_id->x);
        return invoke(system, 2, 52, seeds, seeds_len);
    }
    if (present < minimum) {
        sol_memset_(SCRATCH->data, 0, 4);
        SCRATCH->data[0] = 2; /* Transfer */
        write_u64(SCRATCH->data + 4, minimum - present);
        SCRATCH->metas[1].is_signer = false;
        TRY(invoke(system, 2, 12, seeds, 0));
    }
    cpi_account(0, account, true, true);
    sol_memset_(SCRATCH->data, 0, 4);
    SCRATCH->data[0] = 8; /* Allocate */
    write_u64(SCRATCH->data + 4, size);
    TRY(invoke(system, 1, 12, seeds, seeds_len));
    sol_memset_(SCRATCH->data, 0, 4);
    SCRATCH->data[0] = 1; /* Assign */
    copy32(SCRATCH->data + 4, program_id->x);
    return invoke(system, 1, 36, seeds, seeds_len);
}

static void init_header(u8 *data, u8 kind, u8 bump) {
    Header *header = (Header *)data;
    header->kind = kind;
    header->version = LAYOUT_VERSION;
    header->bump = bump;
    header->status = 0;
}

/* ---------------------------------------------------------------- shared checks */

static bool is_usdc_like_mint(const SolAccountInfo *mint) {
    return key_eq(mint->owner, (const SolPubkey *)TOKEN_PROGRAM_ID) && mint->data_len == TOKEN_MINT_SIZE &&
           mint->data[MINT_IS_INITIALIZED] == 1 && mint->data[MINT_DECIMALS] == USDC_DECIMALS;
}

/* The program's configuration account, at its program address. */
static NOINLINE u64 check_config(const SolAccountInfo *config, const SolPubkey *program_id) {
    if (!is_program_account(config, program_id, KIND_CONFIG, sizeof(Config))) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "the program is not configured");
    }
    SolSignerSeed seeds[2];
    config_seeds(seeds, &((const Config *)config->data)->header.bump);
    if (!derives(seeds, 2, program_id, config->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the configuration is not at its program address");
    }
    return 0;
}

/* The treasury (a program account at its PDA) and its authority's signature. */
static NOINLINE u64 check_authority(const SolAccountInfo *authority, const SolAccountInfo *treasury,
                                    const SolPubkey *program_id) {
    if (!is_program_account(treasury, program_id, KIND_TREASURY, sizeof(Treasury))) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "no treasury account");
    }
    const Treasury *t = (const Treasury *)treasury->data;
    SolSignerSeed seeds[3];
    treasury_seeds(seeds, t->org_hash, &t->header.bump);
    if (!derives(seeds, 3, program_id, treasury->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the treasury is not at its program address");
    }
    if (!key_eq(authority->key, &t->authority) || !authority->is_signer) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the treasury authority did not sign");
    }
    return 0;
}

/* A wallet account of the program, at its PDA; of `treasury` unless that is NULL. */
static NOINLINE u64 check_wallet(const SolAccountInfo *wallet, const SolAccountInfo *treasury,
                                 const SolPubkey *program_id, bool writable) {
    if (!is_program_account(wallet, program_id, KIND_WALLET, sizeof(Wallet))) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "no wallet account");
    }
    const Wallet *w = (const Wallet *)wallet->data;
    if (treasury != NULL && !key_eq(&w->treasury, treasury->key)) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "no wallet account of this organisation");
    }
    SolSignerSeed seeds[4];
    wallet_seeds(seeds, w->org_hash, w->agent_hash, &w->header.bump);
    if (!derives(seeds, 4, program_id, wallet->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the wallet is not at its program address");
    }
    if (writable && !wallet->is_writable) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the wallet account must be writable");
    }
    return 0;
}

/* The wallet's own token account (writable) and the mint it holds. */
static NOINLINE u64 check_wallet_token(const Wallet *w, const SolAccountInfo *token, const SolAccountInfo *mint) {
    if (!key_eq(token->key, &w->token_account) || !token->is_writable ||
        !is_token_account(token, mint->key, NULL)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the wallet's token account");
    }
    return 0;
}

static u64 check_token_program(const SolAccountInfo *account) {
    if (!is_key(account, TOKEN_PROGRAM_ID)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the SPL Token program");
    }
    return 0;
}

static bool policy_lists(const Policy *p, u64 from, u64 count, const SolPubkey *recipient) {
    for (u64 i = from; i < from + count; i++) {
        if (key_eq(&p->entries[i], recipient)) {
            return true;
        }
    }
    return false;
}

/* The wallet's policy account: the one it references, complete. */
static NOINLINE u64 check_policy_of(const Wallet *w, const SolAccountInfo *policy, const SolPubkey *program_id) {
    if (!key_eq(policy->key, &w->policy)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the wallet's policy account");
    }
    if (!is_program_account(policy, program_id, KIND_POLICY, sizeof(Policy)) ||
        policy->data[3] != POLICY_COMPLETE) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "no complete policy account");
    }
    return 0;
}

/* Wallet state, then the session key (check 1). */
static NOINLINE u64 check_wallet_and_session(const Wallet *w, const SolAccountInfo *session, u64 amount, i64 now) {
    if (w->header.status != WALLET_ACTIVE) {
        FAIL(ERR_WALLET_NOT_ACTIVE, "the wallet is not active");
    }
    if (amount == 0) {
        FAIL(ERR_INVALID_ARGUMENT, "the amount must be more than zero");
    }
    if (bytes32_zero(w->session_key.x) || !key_eq(session->key, &w->session_key) || !session->is_signer ||
        now >= w->session_expires_at) {
        FAIL(ERR_SESSION_TOKEN, "no valid session key of this wallet signed");
    }
    return 0;
}

static bool cap_exceeded(u64 cap, u64 total, u64 amount) {
    return amount > cap || total > cap - amount;
}

/*
 * The policy checks 2 to 8, in the enforcement order, of a spend counted at `counted_at` (`now` but for a
 * co-signed payment held earlier): a window that no longer holds `counted_at` does not check it.
 */
static NOINLINE u64 check_spend(const Wallet *w, const Policy *p, const SolPubkey *recipient, u64 amount,
                                const SpendTime *at) {
    i64 now = at->now, counted_at = at->counted_at;
    if ((p->flags & POLICY_MAX_PER_TX) && amount > p->max_per_tx) {
        FAIL(ERR_MAX_PER_TX, "exceeds max_per_tx");
    }
    if (p->allowed_count > 0 && !policy_lists(p, 0, p->allowed_count, recipient)) {
        FAIL(ERR_ALLOWED_RECIPIENTS, "the recipient is not allowed");
    }
    if (policy_lists(p, p->allowed_count, p->blocked_count, recipient)) {
        FAIL(ERR_BLOCKED_CATEGORY, "the recipient is in a blocked category");
    }
    WindowTotal total;
    if ((p->flags & POLICY_MAX_PER_DAY) && window_holds(DAY_BUCKETS, DAY_BUCKET_SECONDS, counted_at, now)) {
        window_total(w->day, DAY_BUCKETS, DAY_BUCKET_SECONDS, now, &total);
        if (cap_exceeded(p->max_per_day, total.amount, amount)) {
            FAIL(ERR_MAX_PER_DAY, "exceeds max_per_day");
        }
    }
    if ((p->flags & POLICY_MAX_PER_MONTH) && window_holds(MONTH_BUCKETS, MONTH_BUCKET_SECONDS, counted_at, now)) {
        window_total(w->month, MONTH_BUCKETS, MONTH_BUCKET_SECONDS, now, &total);
        if (cap_exceeded(p->max_per_month, total.amount, amount)) {
            FAIL(ERR_MAX_PER_MONTH, "exceeds max_per_month");
        }
    }
    if ((p->flags & POLICY_VELOCITY_CAP) && window_holds(HOUR_BUCKETS, HOUR_BUCKET_SECONDS, counted_at, now)) {
        window_total(w->hour, HOUR_BUCKETS, HOUR_BUCKET_SECONDS, now, &total);
        if (total.count + 1 > p->velocity_cap) {
            FAIL(ERR_VELOCITY_CAP, "exceeds velocity_cap");
        }
    }
    if ((p->flags & POLICY_EXPIRY) && now >= p->expiry) {
        FAIL(ERR_POLICY_EXPIRED, "the policy expired");
    }
    return 0;
}

static bool needs_co_sign(const Policy *p, u64 amount) {
    return (p->flags & POLICY_CO_SIGN) && amount >= p->co_sign_threshold;
}

/*
 * Whether a payment may count at `counted_at` (not 0), the instant the books held it: only one the policy's
 * co-signer signed, else the session key alone could move its spend out of a window, and only an instant
 * after the start of the month window before now. A later instant than now counts as now (a cluster's clock
 * may run a few seconds behind the service's).
 */
static bool may_count_earlier(bool co_signed, i64 counted_at, i64 now) {
    return co_signed && counted_at > now - (i64)(MONTH_BUCKETS * MONTH_BUCKET_SECONDS);
}

/* Moves `amount` out of a wallet's token account, signed by the wallet PDA. */
static u64 pay_out_of_wallet(const SolAccountInfo *wallet, const SolAccountInfo *token, const SolAccountInfo *mint,
                             const SolAccountInfo *destination, u64 amount) {
    const Wallet *w = (const Wallet *)wallet->data;
    SolSignerSeed seeds[4];
    wallet_seeds(seeds, w->org_hash, w->agent_hash, &w->header.bump);
    SolSignerSeeds signer = {seeds, 4};
    write_u64(SCRATCH->data + 1, amount);
    return transfer_checked(token, mint, destination, wallet, &signer);
}

/* ---------------------------------------------------------------- instructions */

/* 0. accounts: payer (s,w), registrar (s), config, treasury (w), treasury token, mint, system program.
 *    data: bump, token bump, org_hash[32], authority[32]. Only the configured registrar opens a treasury, only of
 *    the configured mint, so nobody can take an organisation's treasury address first. */
static NOINLINE u64 init_treasury(const Input *in) {
    if (in->count != 7 || in->data_len != DATA_INIT_TREASURY_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "init_treasury: 7 accounts, 67 bytes");
    }
    const SolAccountInfo *payer = &in->accounts[0], *registrar = &in->accounts[1], *config = &in->accounts[2],
                         *treasury = &in->accounts[3], *token = &in->accounts[4], *mint = &in->accounts[5],
                         *system = &in->accounts[6];
    const u8 *bump = in->data + DATA_INIT_TREASURY_BUMP, *token_bump = in->data + DATA_INIT_TREASURY_TOKEN_BUMP,
             *org_hash = in->data + DATA_INIT_TREASURY_ORG_HASH, *authority = in->data + DATA_INIT_TREASURY_AUTHORITY;
    if (!payer->is_signer || !payer->is_writable || !treasury->is_writable || !is_key(system, SYSTEM_PROGRAM_ID)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "init_treasury: signer, writable or system program wrong");
    }
    TRY(check_config(config, in->program_id));
    const Config *c = (const Config *)config->data;
    if (!key_eq(registrar->key, &c->registrar) || !registrar->is_signer) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the registrar did not sign");
    }
    if (!key_eq(mint->key, &c->mint)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the configured mint");
    }
    if (bytes32_zero(authority)) {
        FAIL(ERR_INVALID_ARGUMENT, "init_treasury: no authority");
    }
    SolSignerSeed seeds[3];
    treasury_seeds(seeds, org_hash, bump);
    /* Canonical only: one treasury, so one authority, per organisation (its org_hash is what wallets,
     * policies and escrows are checked against). */
    if (!derives_canonical(seeds, 3, in->program_id, treasury->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the treasury is not at its canonical program address");
    }
    if (!is_associated(token->key, treasury->key, mint->key, token_bump) ||
        !is_token_account(token, mint->key, treasury->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the treasury's associated token account");
    }
    if (key_eq(treasury->owner, in->program_id)) {
        return 0; /* opened before, by the registrar: its authority may have moved since, and stays */
    }
    SolSignerSeeds signer = {seeds, 3};
    TRY(create_account(payer, treasury, sizeof(Treasury), in->program_id, &signer));
    Treasury *t = (Treasury *)treasury->data;
    init_header(treasury->data, KIND_TREASURY, *bump);
    copy32(t->org_hash, org_hash);
    copy32(t->authority.x, authority);
    t->mint = *mint->key;
    t->token_account = *token->key;
    return 0;
}

/* 1. accounts: payer (s,w), authority (s), treasury, wallet (w), wallet token, policy, mint, system program.
 *    data: bump, token bump, agent_hash[32]. */
static NOINLINE u64 create_wallet(const Input *in) {
    if (in->count != 8 || in->data_len != DATA_CREATE_WALLET_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "create_wallet: 8 accounts, 35 bytes");
    }
    const SolAccountInfo *payer = &in->accounts[0], *authority = &in->accounts[1], *treasury = &in->accounts[2],
                         *wallet = &in->accounts[3], *token = &in->accounts[4], *policy = &in->accounts[5],
                         *mint = &in->accounts[6], *system = &in->accounts[7];
    const u8 *bump = in->data + DATA_CREATE_WALLET_BUMP, *token_bump = in->data + DATA_CREATE_WALLET_TOKEN_BUMP,
             *agent_hash = in->data + DATA_CREATE_WALLET_AGENT_HASH;
    TRY(check_authority(authority, treasury, in->program_id));
    const Treasury *t = (const Treasury *)treasury->data;
    if (!payer->is_signer || !payer->is_writable || !wallet->is_writable || !is_key(system, SYSTEM_PROGRAM_ID) ||
        !key_eq(mint->key, &t->mint)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "create_wallet: payer, writable, mint or system program wrong");
    }
    SolSignerSeed seeds[4];
    wallet_seeds(seeds, t->org_hash, agent_hash, bump);
    if (!derives_canonical(seeds, 4, in->program_id, wallet->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the wallet address is not the canonical program address of its seeds");
    }
    if (!is_program_account(policy, in->program_id, KIND_POLICY, sizeof(Policy)) ||
        !bytes32_eq(((const Policy *)policy->data)->org_hash, t->org_hash)) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "no policy account of the organisation");
    }
    if (!is_associated(token->key, wallet->key, mint->key, token_bump) ||
        !is_token_account(token, mint->key, wallet->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the wallet's associated token account");
    }
    if (key_eq(wallet->owner, in->program_id)) {
        return 0; /* the PDA proves the same organisation and agent: opening again is a no-op */
    }
    SolSignerSeeds signer = {seeds, 4};
    TRY(create_account(payer, wallet, sizeof(Wallet), in->program_id, &signer));
    Wallet *w = (Wallet *)wallet->data;
    init_header(wallet->data, KIND_WALLET, *bump);
    copy32(w->org_hash, t->org_hash);
    copy32(w->agent_hash, agent_hash);
    w->treasury = *treasury->key;
    w->policy = *policy->key;
    w->token_account = *token->key;
    return 0;
}

/* Whether an admin write at `sequence` comes after the last one, `*last`, which it then becomes. */
static u64 take_sequence(u64 *last, u64 sequence) {
    if (sequence <= *last) {
        FAIL(ERR_STALE_WRITE, "a newer administrative write is already on chain");
    }
    *last = sequence;
    return 0;
}

/* 2. accounts: authority (s), treasury, wallet (w). data: session_key[32], expires_at i64, sequence u64. */
static NOINLINE u64 set_session_key(const Input *in) {
    if (in->count != 3 || in->data_len != DATA_SET_SESSION_KEY_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "set_session_key: 3 accounts, 49 bytes");
    }
    const SolAccountInfo *authority = &in->accounts[0], *treasury = &in->accounts[1], *wallet = &in->accounts[2];
    TRY(check_authority(authority, treasury, in->program_id));
    TRY(check_wallet(wallet, treasury, in->program_id, true));
    Wallet *w = (Wallet *)wallet->data;
    if (w->header.status == WALLET_ARCHIVED) {
        FAIL(ERR_WALLET_NOT_ACTIVE, "the wallet is archived");
    }
    TRY(take_sequence(&w->admin_sequence, read_u64(in->data + DATA_SET_SESSION_KEY_SEQUENCE)));
    copy32(w->session_key.x, in->data + DATA_SET_SESSION_KEY_SESSION_KEY);
    w->session_expires_at = (i64)read_u64(in->data + DATA_SET_SESSION_KEY_EXPIRES_AT);
    return 0;
}

/* Writes entries [start, start + n) of the policy's lists and updates its completeness. */
static void write_entries(Policy *p, u64 start, u64 n, const u8 *entries) {
    sol_memcpy_(p->entries[start].x, entries, n * 32);
    p->entries_written = (u8)(start + n);
    p->header.status = p->entries_written == p->allowed_count + p->blocked_count ? POLICY_COMPLETE : POLICY_INCOMPLETE;
}

/* 3. accounts: payer (s,w), authority (s), treasury, policy (w), system program.
 *    data: bump, policy_hash[32], sequence u64, flags u32, velocity_cap u32, max_per_tx u64, max_per_day u64,
 *    max_per_month u64, expiry i64, co_sign_threshold u64, co_signer[32], allowed_count u8, blocked_count u8,
 *    n u8, then n entries of 32 bytes (the first of allowed ++ blocked). */
static NOINLINE u64 write_policy(const Input *in) {
    if (in->count != 5 || in->data_len < DATA_WRITE_POLICY_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "write_policy: 5 accounts, at least 126 bytes");
    }
    const SolAccountInfo *payer = &in->accounts[0], *authority = &in->accounts[1], *treasury = &in->accounts[2],
                         *policy = &in->accounts[3], *system = &in->accounts[4];
    const u8 *d = in->data;
    const u8 *bump = d + DATA_WRITE_POLICY_BUMP, *policy_hash = d + DATA_WRITE_POLICY_POLICY_HASH;
    u64 sequence = read_u64(d + DATA_WRITE_POLICY_SEQUENCE);
    u32 flags = read_u32(d + DATA_WRITE_POLICY_FLAGS);
    const u8 *co_signer = d + DATA_WRITE_POLICY_CO_SIGNER;
    u64 allowed = d[DATA_WRITE_POLICY_ALLOWED_COUNT], blocked = d[DATA_WRITE_POLICY_BLOCKED_COUNT],
        n = d[DATA_WRITE_POLICY_ENTRIES_IN_DATA];
    TRY(check_authority(authority, treasury, in->program_id));
    const Treasury *t = (const Treasury *)treasury->data;
    if (!payer->is_signer || !payer->is_writable || !policy->is_writable || !is_key(system, SYSTEM_PROGRAM_ID)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "write_policy: payer, writable or system program wrong");
    }
    if (in->data_len != DATA_WRITE_POLICY_SIZE + n * 32 || (flags & ~POLICY_FLAGS_KNOWN) != 0 ||
        allowed > MAX_ALLOWED_RECIPIENTS || blocked > MAX_BLOCKED_RECIPIENTS || n > allowed + blocked ||
        ((flags & POLICY_CO_SIGN) && bytes32_zero(co_signer)) || d[DATA_WRITE_POLICY_RESERVED] != 0) {
        FAIL(ERR_INVALID_ARGUMENT, "write_policy: malformed policy");
    }
    SolSignerSeed seeds[4];
    policy_seeds(seeds, t->org_hash, policy_hash, bump);
    if (!derives_canonical(seeds, 4, in->program_id, policy->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the policy is not at its canonical program address");
    }
    Policy *p = (Policy *)policy->data;
    if (key_eq(policy->owner, in->program_id)) {
        if (!is_program_account(policy, in->program_id, KIND_POLICY, sizeof(Policy)) ||
            !bytes32_eq(p->org_hash, t->org_hash)) {
            FAIL(ERR_ACCOUNT_MISMATCH, "the policy account belongs to another organisation");
        }
        if (sequence <= p->sequence) {
            FAIL(ERR_STALE_WRITE, "a newer write of the policy is already on chain");
        }
    } else {
        SolSignerSeeds signer = {seeds, 4};
        TRY(create_account(payer, policy, sizeof(Policy), in->program_id, &signer));
        init_header(policy->data, KIND_POLICY, *bump);
        copy32(p->org_hash, t->org_hash);
        copy32(p->policy_hash, policy_hash);
    }
    p->sequence = sequence;
    p->flags = flags;
    p->velocity_cap = read_u32(d + DATA_WRITE_POLICY_VELOCITY_CAP);
    p->max_per_tx = read_u64(d + DATA_WRITE_POLICY_MAX_PER_TX);
    p->max_per_day = read_u64(d + DATA_WRITE_POLICY_MAX_PER_DAY);
    p->max_per_month = read_u64(d + DATA_WRITE_POLICY_MAX_PER_MONTH);
    p->expiry = (i64)read_u64(d + DATA_WRITE_POLICY_EXPIRY);
    p->co_sign_threshold = read_u64(d + DATA_WRITE_POLICY_CO_SIGN_THRESHOLD);
    copy32(p->co_signer.x, co_signer);
    p->allowed_count = (u8)allowed;
    p->blocked_count = (u8)blocked;
    write_entries(p, 0, n, d + DATA_WRITE_POLICY_ENTRIES);
    return 0;
}

/* 4. accounts: authority (s), treasury, policy (w). data: sequence u64 (the policy's), start u8, n u8, n entries. */
static NOINLINE u64 write_policy_entries(const Input *in) {
    if (in->count != 3 || in->data_len < DATA_WRITE_POLICY_ENTRIES_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "write_policy_entries: 3 accounts, at least 11 bytes");
    }
    const SolAccountInfo *authority = &in->accounts[0], *treasury = &in->accounts[1], *policy = &in->accounts[2];
    TRY(check_authority(authority, treasury, in->program_id));
    const Treasury *t = (const Treasury *)treasury->data;
    if (!is_program_account(policy, in->program_id, KIND_POLICY, sizeof(Policy))) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "no policy account");
    }
    Policy *p = (Policy *)policy->data;
    SolSignerSeed seeds[4];
    policy_seeds(seeds, p->org_hash, p->policy_hash, &p->header.bump);
    if (!policy->is_writable || !bytes32_eq(p->org_hash, t->org_hash) || !derives(seeds, 4, in->program_id, policy->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the policy account belongs to another organisation");
    }
    u64 sequence = read_u64(in->data + DATA_WRITE_POLICY_ENTRIES_SEQUENCE);
    u64 start = in->data[DATA_WRITE_POLICY_ENTRIES_START], n = in->data[DATA_WRITE_POLICY_ENTRIES_COUNT];
    if (sequence < p->sequence) {
        FAIL(ERR_STALE_WRITE, "a newer write of the policy is already on chain");
    }
    if (sequence != p->sequence || start != p->entries_written ||
        in->data_len != DATA_WRITE_POLICY_ENTRIES_SIZE + n * 32 ||
        start + n > (u64)p->allowed_count + p->blocked_count) {
        FAIL(ERR_INVALID_ARGUMENT, "write_policy_entries: not the next entries of this version");
    }
    write_entries(p, start, n, in->data + DATA_WRITE_POLICY_ENTRIES_ENTRIES);
    return 0;
}

/* 5. accounts: authority (s), treasury, wallet (w), policy.
 *    data: status u8 (0 active, 1 frozen, 2 archived), sequence u64. */
static NOINLINE u64 update_wallet(const Input *in) {
    if (in->count != 4 || in->data_len != DATA_UPDATE_WALLET_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "update_wallet: 4 accounts, 10 bytes");
    }
    const SolAccountInfo *authority = &in->accounts[0], *treasury = &in->accounts[1], *wallet = &in->accounts[2],
                         *policy = &in->accounts[3];
    u8 status = in->data[DATA_UPDATE_WALLET_STATUS];
    TRY(check_authority(authority, treasury, in->program_id));
    TRY(check_wallet(wallet, treasury, in->program_id, true));
    Wallet *w = (Wallet *)wallet->data;
    if (status > WALLET_ARCHIVED) {
        FAIL(ERR_INVALID_ARGUMENT, "unknown wallet status");
    }
    if (!is_program_account(policy, in->program_id, KIND_POLICY, sizeof(Policy)) ||
        !bytes32_eq(((const Policy *)policy->data)->org_hash, w->org_hash)) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "no policy account of the wallet's organisation");
    }
    if (w->header.status == WALLET_ARCHIVED && status != WALLET_ARCHIVED) {
        FAIL(ERR_WALLET_NOT_ACTIVE, "an archived wallet stays archived");
    }
    TRY(take_sequence(&w->admin_sequence, read_u64(in->data + DATA_UPDATE_WALLET_SEQUENCE)));
    w->header.status = status;
    w->policy = *policy->key;
    return 0;
}

/* 6 and 7. accounts: authority (s), treasury, treasury token (w), wallet, wallet token (w), mint, token program.
 *    data: amount u64. */
static NOINLINE u64 fund_or_withdraw(const Input *in, bool fund) {
    if (in->count != 7 || in->data_len != DATA_FUND_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "fund/withdraw: 7 accounts, 9 bytes");
    }
    const SolAccountInfo *authority = &in->accounts[0], *treasury = &in->accounts[1],
                         *treasury_token = &in->accounts[2], *wallet = &in->accounts[3],
                         *wallet_token = &in->accounts[4], *mint = &in->accounts[5], *program = &in->accounts[6];
    u64 amount = read_u64(in->data + DATA_FUND_AMOUNT);
    TRY(check_authority(authority, treasury, in->program_id));
    const Treasury *t = (const Treasury *)treasury->data;
    TRY(check_token_program(program));
    if (!key_eq(mint->key, &t->mint) || !key_eq(treasury_token->key, &t->token_account) ||
        !treasury_token->is_writable || !is_token_account(treasury_token, mint->key, treasury->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the treasury's token account or mint");
    }
    TRY(check_wallet(wallet, treasury, in->program_id, false));
    const Wallet *w = (const Wallet *)wallet->data;
    TRY(check_wallet_token(w, wallet_token, mint));
    if (fund) {
        if (w->header.status == WALLET_ARCHIVED) {
            FAIL(ERR_WALLET_NOT_ACTIVE, "the wallet is archived");
        }
        if (amount == 0 || token_amount(treasury_token) < amount) {
            FAIL(ERR_INSUFFICIENT_FUNDS, "the treasury holds less");
        }
        SolSignerSeed seeds[3];
        treasury_seeds(seeds, t->org_hash, &t->header.bump);
        SolSignerSeeds signer = {seeds, 3};
        write_u64(SCRATCH->data + 1, amount);
        return transfer_checked(treasury_token, mint, wallet_token, treasury, &signer);
    }
    if (amount == 0 || token_amount(wallet_token) < amount) {
        FAIL(ERR_INSUFFICIENT_FUNDS, "the wallet holds less");
    }
    return pay_out_of_wallet(wallet, wallet_token, mint, treasury_token, amount);
}

/* 8. accounts: session key (s), wallet (w), wallet token (w), policy, recipient token (w), mint, token program,
 *    [co-signer (s)]. data: amount u64, counted_at i64 (0: now). */
static NOINLINE u64 pay(const Input *in) {
    if ((in->count != 7 && in->count != 8) || in->data_len != DATA_PAY_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "pay: 7 or 8 accounts, 17 bytes");
    }
    const SolAccountInfo *session = &in->accounts[0], *wallet = &in->accounts[1], *token = &in->accounts[2],
                         *policy = &in->accounts[3], *recipient = &in->accounts[4], *mint = &in->accounts[5],
                         *program = &in->accounts[6];
    u64 amount = read_u64(in->data + DATA_PAY_AMOUNT);
    i64 counted_at = (i64)read_u64(in->data + DATA_PAY_COUNTED_AT);
    TRY(check_wallet(wallet, NULL, in->program_id, true));
    Wallet *w = (Wallet *)wallet->data;
    TRY(check_wallet_token(w, token, mint));
    TRY(check_policy_of(w, policy, in->program_id));
    TRY(check_token_program(program));
    if (!recipient->is_writable || !is_token_account(recipient, mint->key, NULL)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the recipient is not a token account of the wallet's mint");
    }
    const Policy *p = (const Policy *)policy->data;
    i64 now = now_seconds();
    TRY(check_wallet_and_session(w, session, amount, now));
    bool co_signed = in->count == 8 && key_eq(in->accounts[7].key, &p->co_signer) && in->accounts[7].is_signer;
    if (counted_at != 0 && !may_count_earlier(co_signed, counted_at, now)) {
        FAIL(ERR_INVALID_ARGUMENT, "pay: counted_at needs the co-signature and lies within the month before now");
    }
    SpendTime at = {now, counted_at == 0 || counted_at > now ? now : counted_at};
    TRY(check_spend(w, p, token_owner(recipient), amount, &at));
    if (needs_co_sign(p, amount) && !co_signed) {
        FAIL(ERR_CO_SIGNATURE_INVALID, "the amount needs the co-signer's signature");
    }
    if (token_amount(token) < amount) {
        FAIL(ERR_INSUFFICIENT_FUNDS, "the wallet holds less");
    }
    TRY(pay_out_of_wallet(wallet, token, mint, recipient, amount));
    spend_add(w, &at, amount);
    return 0;
}

/* 9. accounts: session key (s), payer (s,w), wallet (w), wallet token (w), policy, escrow (w), vault (w), mint,
 *    token program, system program. The payer pays the escrow's rent (and the vault's, created before) and gets
 *    both back at settlement.
 *    data: escrow bump, vault bump, escrow_hash[32], receiver[32], amount u64, deadline i64, has_proof u8,
 *    expected_proof[32]. */
static NOINLINE u64 escrow_lock(const Input *in) {
    if (in->count != 10 || in->data_len != DATA_ESCROW_LOCK_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "escrow_lock: 10 accounts, 116 bytes");
    }
    const SolAccountInfo *session = &in->accounts[0], *payer = &in->accounts[1], *wallet = &in->accounts[2],
                         *token = &in->accounts[3], *policy = &in->accounts[4], *escrow = &in->accounts[5],
                         *vault = &in->accounts[6], *mint = &in->accounts[7], *program = &in->accounts[8],
                         *system = &in->accounts[9];
    const u8 *d = in->data;
    const u8 *bump = d + DATA_ESCROW_LOCK_BUMP, *vault_bump = d + DATA_ESCROW_LOCK_VAULT_BUMP,
             *escrow_hash = d + DATA_ESCROW_LOCK_ESCROW_HASH;
    const SolPubkey *receiver = (const SolPubkey *)(d + DATA_ESCROW_LOCK_RECEIVER);
    u64 amount = read_u64(d + DATA_ESCROW_LOCK_AMOUNT);
    i64 deadline = (i64)read_u64(d + DATA_ESCROW_LOCK_DEADLINE);
    u8 has_proof = d[DATA_ESCROW_LOCK_HAS_EXPECTED_PROOF];
    if (has_proof > 1) {
        FAIL(ERR_INVALID_ARGUMENT, "escrow_lock: has_proof is 0 or 1");
    }
    if (key_eq(escrow->owner, in->program_id)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the escrow vault exists");
    }
    TRY(check_wallet(wallet, NULL, in->program_id, true));
    Wallet *w = (Wallet *)wallet->data;
    TRY(check_wallet_token(w, token, mint));
    TRY(check_policy_of(w, policy, in->program_id));
    TRY(check_token_program(program));
    if (!payer->is_signer || !payer->is_writable || !escrow->is_writable || !vault->is_writable ||
        !is_key(system, SYSTEM_PROGRAM_ID)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "escrow_lock: signer, writable or system program wrong");
    }
    SolSignerSeed seeds[4];
    escrow_seeds(seeds, wallet->key->x, escrow_hash, bump);
    if (!derives_canonical(seeds, 4, in->program_id, escrow->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the escrow is not at its canonical program address");
    }
    if (!is_associated(vault->key, escrow->key, mint->key, vault_bump) ||
        !is_token_account(vault, mint->key, escrow->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the escrow's associated vault token account");
    }
    const Policy *p = (const Policy *)policy->data;
    i64 now = now_seconds();
    TRY(check_wallet_and_session(w, session, amount, now));
    SpendTime at = {now, now};
    TRY(check_spend(w, p, receiver, amount, &at));
    if (needs_co_sign(p, amount)) {
        FAIL(ERR_REQUIRE_CO_SIGN, "an escrow at or above the co-sign threshold");
    }
    if (token_amount(token) < amount) {
        FAIL(ERR_INSUFFICIENT_FUNDS, "the wallet holds less");
    }
    SolSignerSeeds signer = {seeds, 4};
    TRY(create_account(payer, escrow, sizeof(Escrow), in->program_id, &signer));
    TRY(pay_out_of_wallet(wallet, token, mint, vault, amount));
    spend_add(w, &at, amount);
    Escrow *e = (Escrow *)escrow->data;
    init_header(escrow->data, KIND_ESCROW, *bump);
    e->header.status = ESCROW_LOCKED;
    copy32(e->org_hash, w->org_hash);
    e->wallet = *wallet->key;
    copy32(e->escrow_hash, escrow_hash);
    e->receiver = *receiver;
    e->vault = *vault->key;
    e->amount = amount;
    e->locked_at = now;
    e->deadline = deadline;
    e->has_expected_proof = has_proof;
    copy32(e->expected_proof, d + DATA_ESCROW_LOCK_EXPECTED_PROOF);
    e->rent_payer = *payer->key;
    return 0;
}

/* An escrow account of the program at its PDA, with its vault; of `treasury`'s organisation unless NULL. */
static NOINLINE u64 check_escrow(const SolAccountInfo *escrow, const SolAccountInfo *vault,
                                 const SolAccountInfo *treasury, const SolPubkey *program_id) {
    if (!is_program_account(escrow, program_id, KIND_ESCROW, sizeof(Escrow))) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "no escrow account");
    }
    const Escrow *e = (const Escrow *)escrow->data;
    SolSignerSeed seeds[4];
    escrow_seeds(seeds, e->wallet.x, e->escrow_hash, &e->header.bump);
    if (!escrow->is_writable || !derives(seeds, 4, program_id, escrow->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the escrow is not at its program address");
    }
    if (treasury != NULL && !bytes32_eq(e->org_hash, ((const Treasury *)treasury->data)->org_hash)) {
        FAIL(ERR_ACCOUNT_NOT_FOUND, "no escrow account of this organisation");
    }
    if (vault != NULL && (!key_eq(vault->key, &e->vault) || !vault->is_writable)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the escrow's vault");
    }
    return 0;
}

/* The account that paid the escrow's and the vault's rent at lock, which a settlement pays them back to. */
static u64 check_rent_payer(const Escrow *e, const SolAccountInfo *rent_payer) {
    if (!key_eq(rent_payer->key, &e->rent_payer) || !rent_payer->is_writable) {
        FAIL(ERR_ACCOUNT_MISMATCH, "not the account that paid the escrow's rent");
    }
    return 0;
}

/*
 * Pays what the vault holds to `destination` and closes the vault and the escrow, their rents to the
 * rent payer, so that a settled escrow costs nothing and no longer exists (settling it again finds no
 * account). The vault's whole balance leaves it, so that the token program's close cannot be blocked by
 * tokens someone sent it.
 */
static NOINLINE u64 settle(const SolAccountInfo *escrow, const SolAccountInfo *vault, const SolAccountInfo *mint,
                           const SolAccountInfo *destination, const SolAccountInfo *rent_payer) {
    Escrow *e = (Escrow *)escrow->data;
    SolSignerSeed seeds[4];
    escrow_seeds(seeds, e->wallet.x, e->escrow_hash, &e->header.bump);
    write_u64(SCRATCH->data + 1, token_amount(vault));
    SolSignerSeeds signer = {seeds, 4};
    TRY(transfer_checked(vault, mint, destination, escrow, &signer));
    cpi_account(0, vault, true, false);
    cpi_account(1, rent_payer, true, false);
    cpi_account(2, escrow, false, true);
    SCRATCH->data[0] = TOKEN_CLOSE_ACCOUNT;
    TRY(invoke((SolPubkey *)TOKEN_PROGRAM_ID, 3, 1, seeds, 4));
    *rent_payer->lamports += *escrow->lamports;
    *escrow->lamports = 0;
    sol_memset_(escrow->data, 0, escrow->data_len);
    return 0;
}

/* The receiver's token account of the vault's mint. */
static u64 check_receiver_token(const Escrow *e, const SolAccountInfo *destination, const SolAccountInfo *vault,
                                const SolAccountInfo *mint) {
    if (!key_eq(mint->key, (const SolPubkey *)(vault->data + TOKEN_ACCOUNT_MINT)) || !destination->is_writable ||
        !is_token_account(destination, mint->key, &e->receiver)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the release does not match the escrow's receiver");
    }
    return 0;
}

/* The sending wallet and its token account, for a refund. */
static u64 check_refund_target(const Escrow *e, const SolAccountInfo *wallet, const SolAccountInfo *token,
                               const SolAccountInfo *mint, const SolPubkey *program_id) {
    if (!key_eq(wallet->key, &e->wallet)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the refund does not match the escrow's wallet");
    }
    TRY(check_wallet(wallet, NULL, program_id, true));
    return check_wallet_token((const Wallet *)wallet->data, token, mint);
}

static void refund_spend(const Escrow *e, const SolAccountInfo *wallet) {
    spend_remove((Wallet *)wallet->data, e->locked_at, e->amount);
}

/* 10. accounts: authority (s), treasury, escrow (w), vault (w), receiver token (w), mint, token program,
 *     rent payer (w). data: proof[32]. */
static NOINLINE u64 escrow_release(const Input *in) {
    if (in->count != 8 || in->data_len != DATA_ESCROW_RELEASE_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "escrow_release: 8 accounts, 33 bytes");
    }
    const SolAccountInfo *authority = &in->accounts[0], *treasury = &in->accounts[1], *escrow = &in->accounts[2],
                         *vault = &in->accounts[3], *destination = &in->accounts[4], *mint = &in->accounts[5],
                         *program = &in->accounts[6], *rent_payer = &in->accounts[7];
    TRY(check_authority(authority, treasury, in->program_id));
    TRY(check_escrow(escrow, vault, treasury, in->program_id));
    TRY(check_token_program(program));
    const Escrow *e = (const Escrow *)escrow->data;
    TRY(check_rent_payer(e, rent_payer));
    TRY(check_receiver_token(e, destination, vault, mint));
    if (e->header.status == ESCROW_DISPUTED) {
        FAIL(ERR_ESCROW_DISPUTED, "a disputed escrow is released only by a resolution");
    }
    if (now_seconds() >= e->deadline) {
        FAIL(ERR_ESCROW_EXPIRED, "the escrow timed out: only its refund is left");
    }
    if (e->has_expected_proof && !bytes32_eq(e->expected_proof, in->data + DATA_ESCROW_RELEASE_PROOF)) {
        FAIL(ERR_PROOF_MISMATCH, "the proof differs from the expected proof");
    }
    return settle(escrow, vault, mint, destination, rent_payer);
}

/* 11. accounts: authority (s), treasury, escrow (w). */
static NOINLINE u64 escrow_dispute(const Input *in) {
    if (in->count != 3 || in->data_len != DATA_ESCROW_DISPUTE_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "escrow_dispute: 3 accounts, 1 byte");
    }
    const SolAccountInfo *authority = &in->accounts[0], *treasury = &in->accounts[1], *escrow = &in->accounts[2];
    TRY(check_authority(authority, treasury, in->program_id));
    TRY(check_escrow(escrow, NULL, treasury, in->program_id));
    Escrow *e = (Escrow *)escrow->data;
    if (now_seconds() >= e->deadline) {
        FAIL(ERR_ESCROW_EXPIRED, "the escrow timed out: a dispute would block its refund");
    }
    e->header.status = ESCROW_DISPUTED;
    return 0;
}

/* 12. accounts: authority (s), treasury, escrow (w), vault (w), destination token (w), wallet (w), mint,
 *     token program, rent payer (w). data: outcome u8 (0 release to the receiver, 1 refund to the wallet). */
static NOINLINE u64 escrow_resolve(const Input *in) {
    if (in->count != 9 || in->data_len != DATA_ESCROW_RESOLVE_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "escrow_resolve: 9 accounts, 2 bytes");
    }
    const SolAccountInfo *authority = &in->accounts[0], *treasury = &in->accounts[1], *escrow = &in->accounts[2],
                         *vault = &in->accounts[3], *destination = &in->accounts[4], *wallet = &in->accounts[5],
                         *mint = &in->accounts[6], *program = &in->accounts[7], *rent_payer = &in->accounts[8];
    u8 outcome = in->data[DATA_ESCROW_RESOLVE_OUTCOME];
    if (outcome > 1) {
        FAIL(ERR_INVALID_ARGUMENT, "escrow_resolve: outcome is 0 (release) or 1 (refund)");
    }
    TRY(check_authority(authority, treasury, in->program_id));
    TRY(check_escrow(escrow, vault, treasury, in->program_id));
    TRY(check_token_program(program));
    const Escrow *e = (const Escrow *)escrow->data;
    TRY(check_rent_payer(e, rent_payer));
    if (outcome == 0) {
        TRY(check_receiver_token(e, destination, vault, mint));
    } else {
        TRY(check_refund_target(e, wallet, destination, mint, in->program_id));
    }
    if (e->header.status != ESCROW_DISPUTED) {
        FAIL(ERR_INVALID_ARGUMENT, "only a disputed escrow is resolved");
    }
    if (outcome == 1) {
        refund_spend(e, wallet);
    }
    return settle(escrow, vault, mint, destination, rent_payer);
}

/* 13. accounts: escrow (w), vault (w), wallet (w), wallet token (w), mint, token program, rent payer (w). Anyone
 *     may send it: the funds go back to the wallet and the rents to the recorded payer. */
static NOINLINE u64 escrow_refund(const Input *in) {
    if (in->count != 7 || in->data_len != DATA_ESCROW_REFUND_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "escrow_refund: 7 accounts, 1 byte");
    }
    const SolAccountInfo *escrow = &in->accounts[0], *vault = &in->accounts[1], *wallet = &in->accounts[2],
                         *token = &in->accounts[3], *mint = &in->accounts[4], *program = &in->accounts[5],
                         *rent_payer = &in->accounts[6];
    TRY(check_escrow(escrow, vault, NULL, in->program_id));
    TRY(check_token_program(program));
    const Escrow *e = (const Escrow *)escrow->data;
    TRY(check_rent_payer(e, rent_payer));
    TRY(check_refund_target(e, wallet, token, mint, in->program_id));
    if (e->header.status == ESCROW_DISPUTED) {
        FAIL(ERR_ESCROW_DISPUTED, "a disputed escrow does not time out");
    }
    if (now_seconds() < e->deadline) {
        FAIL(ERR_ESCROW_NOT_DUE, "the escrow has not timed out");
    }
    refund_spend(e, wallet);
    return settle(escrow, vault, mint, token, rent_payer);
}

/* The upgrade authority recorded in the program's ProgramData account (the upgradeable loader's PDA of the
 * program id), or NULL when the program has none (immutable) or the account is not that. */
static NOINLINE const SolPubkey *upgrade_authority(const SolAccountInfo *program_data, const SolPubkey *program_id) {
    SolSignerSeed seeds[1] = {{program_id->x, 32}};
    SolPubkey derived;
    u8 bump;
    if (sol_try_find_program_address(seeds, 1, (const SolPubkey *)UPGRADEABLE_LOADER_ID, &derived, &bump) != 0 ||
        !key_eq(&derived, program_data->key) || !key_eq(program_data->owner, (const SolPubkey *)UPGRADEABLE_LOADER_ID) ||
        program_data->data_len < PROGRAM_DATA_AUTHORITY + 32 || read_u32(program_data->data) != PROGRAM_DATA_TAG ||
        program_data->data[PROGRAM_DATA_HAS_AUTHORITY] != 1) {
        return NULL;
    }
    return (const SolPubkey *)(program_data->data + PROGRAM_DATA_AUTHORITY);
}

/* 14. accounts: upgrade authority (s,w), config (w), program data, mint, system program. data: bump, registrar[32].
 *     Writes the configuration, or names another registrar; the mint, once set, stays. */
static NOINLINE u64 configure(const Input *in) {
    if (in->count != 5 || in->data_len != DATA_CONFIGURE_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "configure: 5 accounts, 34 bytes");
    }
    const SolAccountInfo *authority = &in->accounts[0], *config = &in->accounts[1], *program_data = &in->accounts[2],
                         *mint = &in->accounts[3], *system = &in->accounts[4];
    const u8 *bump = in->data + DATA_CONFIGURE_BUMP, *registrar = in->data + DATA_CONFIGURE_REGISTRAR;
    if (!authority->is_signer || !authority->is_writable || !config->is_writable || !is_key(system, SYSTEM_PROGRAM_ID)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "configure: signer, writable or system program wrong");
    }
    const SolPubkey *upgrader = upgrade_authority(program_data, in->program_id);
    if (upgrader == NULL || !key_eq(upgrader, authority->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the program's upgrade authority did not sign");
    }
    if (bytes32_zero(registrar)) {
        FAIL(ERR_INVALID_ARGUMENT, "configure: no registrar");
    }
    SolSignerSeed seeds[2];
    config_seeds(seeds, bump);
    if (!derives_canonical(seeds, 2, in->program_id, config->key)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "the configuration is not at its canonical program address");
    }
    Config *c = (Config *)config->data;
    if (key_eq(config->owner, in->program_id)) {
        TRY(check_config(config, in->program_id));
        if (!key_eq(mint->key, &c->mint)) {
            FAIL(ERR_ACCOUNT_MISMATCH, "the configured mint does not change");
        }
    } else {
        if (!is_usdc_like_mint(mint)) {
            FAIL(ERR_ACCOUNT_MISMATCH, "the mint is not a 6-decimal SPL Token mint");
        }
        SolSignerSeeds signer = {seeds, 2};
        TRY(create_account(authority, config, sizeof(Config), in->program_id, &signer));
        init_header(config->data, KIND_CONFIG, *bump);
        c->mint = *mint->key;
    }
    copy32(c->registrar.x, registrar);
    return 0;
}

/* 15. accounts: authority (s), treasury (w). data: new authority[32]. Hands the organisation to another key (its
 *     own multisig, say); the old one is refused from then on. */
static NOINLINE u64 set_authority(const Input *in) {
    if (in->count != 2 || in->data_len != DATA_SET_AUTHORITY_SIZE) {
        FAIL(ERR_INVALID_ARGUMENT, "set_authority: 2 accounts, 33 bytes");
    }
    const SolAccountInfo *authority = &in->accounts[0], *treasury = &in->accounts[1];
    const u8 *next = in->data + DATA_SET_AUTHORITY_AUTHORITY;
    TRY(check_authority(authority, treasury, in->program_id));
    if (!treasury->is_writable) {
        FAIL(ERR_ACCOUNT_MISMATCH, "set_authority: the treasury must be writable");
    }
    if (bytes32_zero(next)) {
        FAIL(ERR_INVALID_ARGUMENT, "set_authority: no new authority");
    }
    copy32(((Treasury *)treasury->data)->authority.x, next);
    return 0;
}

u64 entrypoint(const u8 *input) {
    Input in;
    if (!parse_input(input, &in)) {
        FAIL(ERR_ACCOUNT_MISMATCH, "an account appears twice, or too many accounts");
    }
    if (in.data_len == 0) {
        FAIL(ERR_INVALID_ARGUMENT, "no instruction");
    }
    switch (in.data[0]) {
    case IX_INIT_TREASURY:
        return init_treasury(&in);
    case IX_CREATE_WALLET:
        return create_wallet(&in);
    case IX_SET_SESSION_KEY:
        return set_session_key(&in);
    case IX_WRITE_POLICY:
        return write_policy(&in);
    case IX_WRITE_POLICY_ENTRIES:
        return write_policy_entries(&in);
    case IX_UPDATE_WALLET:
        return update_wallet(&in);
    case IX_FUND:
        return fund_or_withdraw(&in, true);
    case IX_WITHDRAW:
        return fund_or_withdraw(&in, false);
    case IX_PAY:
        return pay(&in);
    case IX_ESCROW_LOCK:
        return escrow_lock(&in);
    case IX_ESCROW_RELEASE:
        return escrow_release(&in);
    case IX_ESCROW_DISPUTE:
        return escrow_dispute(&in);
    case IX_ESCROW_RESOLVE:
        return escrow_resolve(&in);
    case IX_ESCROW_REFUND:
        return escrow_refund(&in);
    case IX_CONFIGURE:
        return configure(&in);
    case IX_SET_AUTHORITY:
        return set_authority(&in);
    default:
        FAIL(ERR_INVALID_ARGUMENT, "unknown instruction");
    }
}
