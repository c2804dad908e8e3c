/*
 * The Solana runtime as this program sees it: fixed-width types, the syscalls it calls, the
 * serialized input (the aligned layout of the BPF upgradeable loader) and small memory helpers.
 * Freestanding: no libc, no writable globals; scratch space is the heap at 0x300000000.
 */
#ifndef AGENT_WALLET_SOL_H
#define AGENT_WALLET_SOL_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;
typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)

#define NOINLINE __attribute__((noinline))

typedef struct {
    u8 x[32];
} SolPubkey;

/* The runtime's C ABI structures (sol_invoke_signed_c). */
typedef struct {
    SolPubkey *key;
    u64 *lamports;
    u64 data_len;
    u8 *data;
    SolPubkey *owner;
    u64 rent_epoch;
    bool is_signer;
    bool is_writable;
    bool executable;
} SolAccountInfo;

typedef struct {
    SolPubkey *pubkey;
    bool is_writable;
    bool is_signer;
} SolAccountMeta;

typedef struct {
    SolPubkey *program_id;
    SolAccountMeta *accounts;
    u64 account_len;
    u8 *data;
    u64 data_len;
} SolInstruction;

typedef struct {
    const u8 *addr;
    u64 len;
} SolSignerSeed;

typedef struct {
    const SolSignerSeed *addr;
    u64 len;
} SolSignerSeeds;

typedef struct {
    u64 slot;
    i64 epoch_start_timestamp;
    u64 epoch;
    u64 leader_schedule_epoch;
    i64 unix_timestamp;
} SolClock;

typedef struct {
    u64 lamports_per_byte_year;
    u64 exemption_threshold_bits; /* an f64, decoded by hand */
    u8 burn_percent;
} SolRent;

/* Syscalls, resolved by the loader from the murmur3 hash of their names. */
extern void sol_log_(const char *message, u64 len);
extern void sol_log_64_(u64 a, u64 b, u64 c, u64 d, u64 e);
extern u64 sol_create_program_address(const SolSignerSeed *seeds, u64 seeds_len, const SolPubkey *program_id,
                                      SolPubkey *address);
extern u64 sol_try_find_program_address(const SolSignerSeed *seeds, u64 seeds_len, const SolPubkey *program_id,
                                        SolPubkey *address, u8 *bump);
extern u64 sol_invoke_signed_c(const SolInstruction *instruction, const SolAccountInfo *account_infos,
                               int account_infos_len, const SolSignerSeeds *signers_seeds, int signers_seeds_len);
extern u64 sol_get_clock_sysvar(void *clock);
extern u64 sol_get_rent_sysvar(void *rent);
extern void sol_memcpy_(void *dst, const void *src, u64 n);
extern void sol_memset_(void *dst, int c, u64 n);

void *memcpy(void *dst, const void *src, u64 n) {
    sol_memcpy_(dst, src, n);
    return dst;
}

void *memset(void *dst, int c, u64 n) {
    sol_memset_(dst, c, n);
    return dst;
}

#define sol_log(literal) sol_log_((literal), sizeof(literal) - 1)

#define HEAP_START 0x300000000ULL
#define MAX_ACCOUNTS 12
#define MAX_PERMITTED_DATA_INCREASE (1024 * 10)
#define NON_DUP_MARKER 0xff

/* The parsed input: account infos live in the heap, since the stack frame is only 512 bytes. */
typedef struct {
    SolAccountInfo *accounts;
    u64 count;
    const u8 *data;
    u64 data_len;
    const SolPubkey *program_id;
} Input;

static inline bool key_eq(const SolPubkey *a, const SolPubkey *b) {
    const u64 *x = (const u64 *)a;
    const u64 *y = (const u64 *)b;
    return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3];
}

static inline bool bytes32_eq(const u8 *a, const u8 *b) {
    for (int i = 0; i < 32; i++) {
        if (a[i] != b[i]) {
            return false;
        }
    }
    return true;
}

static inline bool bytes32_zero(const u8 *a) {
    for (int i = 0; i < 32; i++) {
        if (a[i] != 0) {
            return false;
        }
    }
    return true;
}

static inline void copy32(u8 *dst, const u8 *src) {
    for (int i = 0; i < 32; i++) {
        dst[i] = src[i];
    }
}

/* Little-endian reads of possibly unaligned instruction data. */
static inline u64 read_u64(const u8 *p) {
    u64 v = 0;
    for (int i = 7; i >= 0; i--) {
        v = (v << 8) | p[i];
    }
    return v;
}

static inline u32 read_u32(const u8 *p) {
    return (u32)p[0] | ((u32)p[1] << 8) | ((u32)p[2] << 16) | ((u32)p[3] << 24);
}

static inline void write_u64(u8 *p, u64 v) {
    for (int i = 0; i < 8; i++) {
        p[i] = (u8)(v >> (8 * i));
    }
}

/*
 * Parses the serialized input. Returns false when an account appears twice: no instruction of
 * this program takes the same account in two places, so a duplicate is always a substitution.
 */
static NOINLINE bool parse_input(const u8 *input, Input *out) {
    SolAccountInfo *accounts = (SolAccountInfo *)HEAP_START;
    u64 count = *(const u64 *)input;
    input += sizeof(u64);
    if (count > MAX_ACCOUNTS) {
        return false;
    }
    for (u64 i = 0; i < count; i++) {
        u8 dup = *input;
        if (dup != NON_DUP_MARKER) {
            return false;
        }
        input += 1;
        accounts[i].is_signer = *input != 0;
        input += 1;
        accounts[i].is_writable = *input != 0;
        input += 1;
        accounts[i].executable = *input != 0;
        input += 1 + 4; /* executable, original data length */
        accounts[i].key = (SolPubkey *)input;
        input += sizeof(SolPubkey);
        accounts[i].owner = (SolPubkey *)input;
        input += sizeof(SolPubkey);
        accounts[i].lamports = (u64 *)input;
        input += sizeof(u64);
        accounts[i].data_len = *(const u64 *)input;
        input += sizeof(u64);
        accounts[i].data = (u8 *)input;
        input += accounts[i].data_len + MAX_PERMITTED_DATA_INCREASE;
        input = (const u8 *)(((u64)input + 7) & ~7ULL);
        accounts[i].rent_epoch = *(const u64 *)input;
        input += sizeof(u64);
    }
    out->accounts = accounts;
    out->count = count;
    out->data_len = *(const u64 *)input;
    input += sizeof(u64);
    out->data = input;
    input += out->data_len;
    out->program_id = (const SolPubkey *)input;
    return true;
}

#endif
