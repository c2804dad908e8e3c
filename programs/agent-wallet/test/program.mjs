// Instruction builders of the agent-wallet program and an organisation fixture on a World.
import {
  ATA_PROGRAM, Bytes, IX, Keypair, PROGRAM_ID, SYSTEM_PROGRAM, TOKEN_PROGRAM, USDC, ata, configPda, escrowPda, policyPda,
  r, s, sha256, sw, treasuryPda, w, walletPda,
} from './harness.mjs';

export const ix = (accounts, data) => ({ programId: PROGRAM_ID, accounts, data });

/**
 * InitTreasury of `orgId`, signed by the `registrar` the `config` account names: the treasury PDA at `bump`, its
 * associated token account `token` of `mint`, answering to `authority`; `payer` pays its rent.
 */
export const initTreasury = ({ payer, registrar, config, treasury, token, mint, bump, tokenBump, orgId, authority }) => ix(
  [sw(payer), s(registrar), r(config), w(treasury), r(token), r(mint), r(SYSTEM_PROGRAM)],
  new Bytes().u8(IX.INIT_TREASURY).u8(bump).u8(tokenBump).raw(sha256(orgId)).key(authority).done(),
);

/** SetAuthority: the organisation's current `authority` hands its treasury to `next`. */
export const setAuthority = ({ authority, treasury, next }) => ix(
  [s(authority), w(treasury)], new Bytes().u8(IX.SET_AUTHORITY).key(next).done(),
);

export const FLAG = { MAX_PER_TX: 1, MAX_PER_DAY: 2, MAX_PER_MONTH: 4, VELOCITY_CAP: 8, EXPIRY: 16, CO_SIGN: 32 };

/**
 * Instruction data of WritePolicy for a rules object (its admin `sequence`, default 1); `n` entries travel with it
 * (default: all).
 */
export function writePolicyData(bump, policyId, rules, n) {
  const allowed = rules.allowed ?? [];
  const blocked = rules.blocked ?? [];
  const entries = [...allowed, ...blocked];
  const count = n ?? entries.length;
  let flags = 0;
  if (rules.maxPerTx !== undefined) flags |= FLAG.MAX_PER_TX;
  if (rules.maxPerDay !== undefined) flags |= FLAG.MAX_PER_DAY;
  if (rules.maxPerMonth !== undefined) flags |= FLAG.MAX_PER_MONTH;
  if (rules.velocityCap !== undefined) flags |= FLAG.VELOCITY_CAP;
  if (rules.expiry !== undefined) flags |= FLAG.EXPIRY;
  if (rules.coSign !== undefined) flags |= FLAG.CO_SIGN;
  const data = new Bytes().u8(IX.WRITE_POLICY).u8(bump).raw(sha256(policyId)).u64(rules.sequence ?? 1).u32(flags)
    .u32(rules.velocityCap ?? 0).u64(rules.maxPerTx ?? 0).u64(rules.maxPerDay ?? 0).u64(rules.maxPerMonth ?? 0)
    .u64(rules.expiry ?? 0).u64(rules.coSign ?? 0);
  data.raw(rules.coSigner ? rules.coSigner.publicKey : Buffer.alloc(32));
  data.u8(allowed.length).u8(blocked.length).u8(count).u8(0);
  for (const entry of entries.slice(0, count)) data.key(entry);
  return data.done();
}

export class Org {
  static async create(world, orgId = 'org_test') {
    const org = new Org(world, orgId);
    await org.init();
    return org;
  }

  constructor(world, orgId) {
    this.world = world;
    this.orgId = orgId;
    this.authority = new Keypair();
    world.svm.airdrop(this.authority.address, 100_000_000_000n);
    this.sequence = 0n;
  }

  /** The next admin sequence, as the service takes one for each administrative write. */
  nextSequence() {
    this.sequence += 1n;
    return this.sequence;
  }

  async init() {
    this.mintAuthority = this.world.mintAuthority ??= new Keypair();
    this.mint = this.world.mint ??= this.world.createMint(this.mintAuthority);
    await this.world.configure(this.mint);
    this.config = (await configPda()).address;
    this.treasury = await treasuryPda(this.orgId);
    this.treasuryToken = await this.world.createAta(this.treasury.address, this.mint);
    const { bump: tokenBump } = await ata(this.treasury.address, this.mint);
    this.treasuryTokenBump = tokenBump;
    this.world.run('init_treasury', this.initTreasury(), [this.world.registrar]).expectOk();
  }

  initTreasury(overrides = {}) {
    return initTreasury({
      payer: this.world.payer.address, registrar: overrides.registrar ?? this.world.registrar.address,
      config: this.config, authority: this.authority.address, treasury: overrides.treasury ?? this.treasury.address,
      token: overrides.token ?? this.treasuryToken, mint: overrides.mint ?? this.mint,
      bump: overrides.bump ?? this.treasury.bump, tokenBump: overrides.tokenBump ?? this.treasuryTokenBump,
      orgId: this.orgId,
    });
  }

  setAuthority(next, authority = this.authority.address) {
    return setAuthority({ authority, treasury: this.treasury.address, next });
  }

  deposit(amount) {
    this.world.mintTo(this.mint, this.mintAuthority, this.treasuryToken, amount);
  }

  async policy(policyId, rules, name = 'write_policy') {
    const policy = await policyPda(this.orgId, policyId);
    const outcome = this.world.run(name, this.writePolicy(policy, policyId, rules), [this.authority]);
    return { ...policy, policyId, outcome };
  }

  /** WritePolicy at `rules.sequence`, or else the next sequence. */
  writePolicy(policy, policyId, rules, n) {
    const sequenced = { ...rules, sequence: rules.sequence ?? this.nextSequence() };
    return ix([sw(this.world.payer.address), s(this.authority.address), r(this.treasury.address), w(policy.address),
      r(SYSTEM_PROGRAM)], writePolicyData(policy.bump, policyId, sequenced, n));
  }

  writePolicyEntries(policy, sequence, start, entries) {
    const data = new Bytes().u8(IX.WRITE_POLICY_ENTRIES).u64(sequence).u8(start).u8(entries.length);
    for (const entry of entries) data.key(entry);
    return ix([s(this.authority.address), r(this.treasury.address), w(policy.address)], data.done());
  }

  /** Creates the wallet's token account and the wallet; sets a session key valid for an hour. */
  async wallet(agentId, policy, { session = true } = {}) {
    const wallet = await walletPda(this.orgId, agentId);
    const token = await this.world.createAta(wallet.address, this.mint);
    const { bump: tokenBump } = await ata(wallet.address, this.mint);
    const handle = { agentId, address: wallet.address, bump: wallet.bump, token, tokenBump, policy: policy.address };
    this.world.run('create_wallet', this.createWallet(handle), [this.authority]).expectOk();
    if (session) {
      handle.session = new Keypair();
      this.world.run('set_session_key', this.setSessionKey(handle, handle.session, this.world.now() + 3600n),
        [this.authority]).expectOk();
    }
    return handle;
  }

  createWallet(wallet, overrides = {}) {
    return ix([
      sw(this.world.payer.address), s(this.authority.address), r(overrides.treasury ?? this.treasury.address),
      w(overrides.wallet ?? wallet.address), r(overrides.token ?? wallet.token),
      r(overrides.policy ?? wallet.policy), r(this.mint), r(SYSTEM_PROGRAM),
    ], new Bytes().u8(IX.CREATE_WALLET).u8(overrides.bump ?? wallet.bump).u8(overrides.tokenBump ?? wallet.tokenBump)
      .raw(sha256(overrides.agentId ?? wallet.agentId)).done());
  }

  setSessionKey(wallet, session, expiresAt, sequence = this.nextSequence()) {
    return ix([s(this.authority.address), r(this.treasury.address), w(wallet.address)],
      new Bytes().u8(IX.SET_SESSION_KEY).raw(session.publicKey).u64(expiresAt).u64(sequence).done());
  }

  updateWallet(wallet, status, policy = wallet.policy, sequence = this.nextSequence()) {
    return ix([s(this.authority.address), r(this.treasury.address), w(wallet.address), r(policy)],
      new Bytes().u8(IX.UPDATE_WALLET).u8(status).u64(sequence).done());
  }

  fund(wallet, amount, overrides = {}) {
    return this.move(IX.FUND, wallet, amount, overrides);
  }

  withdraw(wallet, amount, overrides = {}) {
    return this.move(IX.WITHDRAW, wallet, amount, overrides);
  }

  move(tag, wallet, amount, overrides) {
    return ix([
      s(overrides.authority ?? this.authority.address), r(overrides.treasury ?? this.treasury.address),
      w(overrides.treasuryToken ?? this.treasuryToken), r(overrides.wallet ?? wallet.address),
      w(overrides.walletToken ?? wallet.token), r(this.mint), r(overrides.tokenProgram ?? TOKEN_PROGRAM),
    ], new Bytes().u8(tag).u64(amount).done());
  }

  /**
   * Pay from a wallet: `session` signs (unless overridden), optionally a co-signer account; `countedAt` is the
   * instant the payment counts at (0, the default: when it lands).
   */
  pay(wallet, recipientToken, amount, overrides = {}) {
    const session = overrides.session ?? wallet.session;
    const accounts = [
      overrides.sessionNotSigning ? r(session.address) : s(session.address), w(overrides.wallet ?? wallet.address),
      w(overrides.walletToken ?? wallet.token), r(overrides.policy ?? wallet.policy), w(recipientToken),
      r(overrides.mint ?? this.mint), r(TOKEN_PROGRAM),
    ];
    if (overrides.coSigner) {
      accounts.push(overrides.coSignerNotSigning ? r(overrides.coSigner.address) : s(overrides.coSigner.address));
    }
    return ix(accounts, new Bytes().u8(IX.PAY).u64(amount).u64(overrides.countedAt ?? 0n).done());
  }

  payAs(wallet, recipientToken, amount, overrides = {}) {
    const session = overrides.session ?? wallet.session;
    const signers = [session];
    if (overrides.coSigner && !overrides.coSignerNotSigning) signers.push(overrides.coSigner);
    const outcome = this.world.run('pay', this.pay(wallet, recipientToken, amount, overrides),
      overrides.sessionNotSigning ? signers.slice(1) : signers);
    return outcome;
  }

  async escrow(wallet, escrowId) {
    const escrow = await escrowPda(wallet.address, escrowId);
    const vault = await this.world.createAta(escrow.address, this.mint);
    const { bump: vaultBump } = await ata(escrow.address, this.mint);
    return { escrowId, address: escrow.address, bump: escrow.bump, vault, vaultBump, wallet };
  }

  lock(escrow, receiver, amount, deadline, expectedProof, overrides = {}) {
    const wallet = escrow.wallet;
    const session = overrides.session ?? wallet.session;
    const data = new Bytes().u8(IX.ESCROW_LOCK).u8(escrow.bump).u8(escrow.vaultBump).raw(sha256(escrow.escrowId))
      .key(receiver).u64(amount).u64(deadline).u8(expectedProof ? 1 : 0).raw(expectedProof ?? Buffer.alloc(32)).done();
    return this.world.run('escrow_lock', ix([
      s(session.address), sw(this.world.payer.address), w(wallet.address), w(wallet.token), r(wallet.policy),
      w(escrow.address), w(overrides.vault ?? escrow.vault), r(this.mint), r(TOKEN_PROGRAM), r(SYSTEM_PROGRAM),
    ], data), [session]);
  }

  /** The settling instructions pay the rents back to `rentPayer`, by default the payer of the lock. */
  release(escrow, receiverToken, proof, overrides = {}) {
    return this.world.run('escrow_release', ix([
      s(this.authority.address), r(this.treasury.address), w(escrow.address), w(escrow.vault), w(receiverToken),
      r(this.mint), r(TOKEN_PROGRAM), w(overrides.rentPayer ?? this.world.payer.address),
    ], new Bytes().u8(IX.ESCROW_RELEASE).raw(proof).done()), [this.authority]);
  }

  dispute(escrow) {
    return this.world.run('escrow_dispute', ix([s(this.authority.address), r(this.treasury.address), w(escrow.address)],
      Buffer.from([IX.ESCROW_DISPUTE])), [this.authority]);
  }

  resolve(escrow, outcome, destinationToken, overrides = {}) {
    return this.world.run('escrow_resolve', ix([
      s(this.authority.address), r(this.treasury.address), w(escrow.address), w(escrow.vault), w(destinationToken),
      w(escrow.wallet.address), r(this.mint), r(TOKEN_PROGRAM), w(overrides.rentPayer ?? this.world.payer.address),
    ], Buffer.from([IX.ESCROW_RESOLVE, outcome])), [this.authority]);
  }

  refund(escrow, overrides = {}) {
    return this.world.run('escrow_refund', ix([
      w(escrow.address), w(escrow.vault), w(overrides.wallet ?? escrow.wallet.address),
      w(overrides.walletToken ?? escrow.wallet.token), r(this.mint), r(TOKEN_PROGRAM),
      w(overrides.rentPayer ?? this.world.payer.address),
    ], Buffer.from([IX.ESCROW_REFUND])));
  }
}

export { USDC, ATA_PROGRAM };
