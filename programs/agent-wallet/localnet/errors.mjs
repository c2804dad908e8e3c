// Transaction errors as Solana's RPC shows them (serde JSON and Display text), from LiteSVM's
// error objects, and the JSON-RPC error the server answers with.

/** JSON-RPC error codes: the standard ones and Solana's server errors. */
export const CODE = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SEND_TRANSACTION_PREFLIGHT_FAILURE: -32002,
  TRANSACTION_SIGNATURE_VERIFICATION_FAILURE: -32003,
  UNSUPPORTED_TRANSACTION_VERSION: -32015,
  MIN_CONTEXT_SLOT_NOT_REACHED: -32016,
};

export class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }

  toJSON() {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const signatureVerificationFailure = () => new RpcError(CODE.TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  'Transaction signature verification failure');
export const invalidParams = (message) => new RpcError(CODE.INVALID_PARAMS, message);
export const invalidParam = (detail) => new RpcError(CODE.INVALID_PARAMS, `Invalid param: ${detail}`);

// TransactionError variants without fields, in LiteSVM's (and Solana's) order, with their Display text.
const TRANSACTION_ERRORS = [
  ['AccountInUse', 'Account in use'],
  ['AccountLoadedTwice', 'Account loaded twice'],
  ['AccountNotFound', 'Attempt to debit an account but found no record of a prior credit.'],
  ['ProgramAccountNotFound', 'Attempt to load a program that does not exist'],
  ['InsufficientFundsForFee', 'Insufficient funds for fee'],
  ['InvalidAccountForFee', 'This account may not be used to pay transaction fees'],
  ['AlreadyProcessed', 'This transaction has already been processed'],
  ['BlockhashNotFound', 'Blockhash not found'],
  ['CallChainTooDeep', 'Loader call chain is too deep'],
  ['MissingSignatureForFee', 'Transaction requires a fee but has no signature present'],
  ['InvalidAccountIndex', 'Transaction contains an invalid account reference'],
  ['SignatureFailure', 'Transaction did not pass signature verification'],
  ['InvalidProgramForExecution', 'This program may not be used for executing instructions'],
  ['SanitizeFailure', 'Transaction failed to sanitize accounts offsets correctly'],
  ['ClusterMaintenance', 'Transactions are currently disabled due to cluster maintenance'],
  ['AccountBorrowOutstanding', 'Transaction processing left an account with an outstanding borrowed reference'],
  ['WouldExceedMaxBlockCostLimit', 'Transaction would exceed max Block Cost Limit'],
  ['UnsupportedVersion', 'Transaction version is unsupported'],
  ['InvalidWritableAccount', 'Transaction loads a writable account that cannot be written'],
  ['WouldExceedMaxAccountCostLimit', 'Transaction would exceed max account limit within the block'],
  ['WouldExceedAccountDataBlockLimit', 'Transaction would exceed account data limit within the block'],
  ['TooManyAccountLocks', 'Transaction locked too many accounts'],
  ['AddressLookupTableNotFound', "Transaction loads an address table account that doesn't exist"],
  ['InvalidAddressLookupTableOwner', 'Transaction loads an address table account with an invalid owner'],
  ['InvalidAddressLookupTableData', 'Transaction loads an address table account with invalid data'],
  ['InvalidAddressLookupTableIndex', 'Transaction address table lookup uses an invalid index'],
  ['InvalidRentPayingAccount', 'Transaction leaves an account with a lower balance than rent-exempt minimum'],
  ['WouldExceedMaxVoteCostLimit', 'Transaction would exceed max Vote Cost Limit'],
  ['WouldExceedAccountDataTotalLimit', 'Transaction would exceed total account data limit'],
  ['MaxLoadedAccountsDataSizeExceeded', 'Transaction exceeded max loaded accounts data size cap'],
  ['InvalidLoadedAccountsDataSizeLimit', 'LoadedAccountsDataSizeLimit set for transaction must be greater than 0.'],
  ['ResanitizationNeeded', 'ResanitizationNeeded'],
  ['UnbalancedTransaction', 'Sum of account balances before and after transaction do not match'],
  ['ProgramCacheHitMaxLimit', 'Program cache hit max limit'],
  ['CommitCancelled', 'CommitCancelled'],
];

// InstructionError variants without fields, in LiteSVM's order, with their Display text.
const INSTRUCTION_ERRORS = [
  ['GenericError', 'generic instruction error'],
  ['InvalidArgument', 'invalid program argument'],
  ['InvalidInstructionData', 'invalid instruction data'],
  ['InvalidAccountData', 'invalid account data for instruction'],
  ['AccountDataTooSmall', 'account data too small for instruction'],
  ['InsufficientFunds', 'insufficient funds for instruction'],
  ['IncorrectProgramId', 'incorrect program id for instruction'],
  ['MissingRequiredSignature', 'missing required signature for instruction'],
  ['AccountAlreadyInitialized', 'instruction requires an uninitialized account'],
  ['UninitializedAccount', 'instruction requires an initialized account'],
  ['UnbalancedInstruction', 'sum of account balances before and after instruction do not match'],
  ['ModifiedProgramId', 'instruction illegally modified the program id of an account'],
  ['ExternalAccountLamportSpend', 'instruction spent from the balance of an account it does not own'],
  ['ExternalAccountDataModified', 'instruction modified data of an account it does not own'],
  ['ReadonlyLamportChange', 'instruction changed the balance of a read-only account'],
  ['ReadonlyDataModified', 'instruction modified data of a read-only account'],
  ['DuplicateAccountIndex', 'instruction contains duplicate accounts'],
  ['ExecutableModified', 'instruction changed executable bit of an account'],
  ['RentEpochModified', 'instruction modified rent epoch of an account'],
  ['NotEnoughAccountKeys', 'insufficient account keys for instruction'],
  ['AccountDataSizeChanged', "program other than the account's owner changed the size of the account data"],
  ['AccountNotExecutable', 'instruction expected an executable account'],
  ['AccountBorrowFailed', 'instruction tries to borrow reference for an account which is already borrowed'],
  ['AccountBorrowOutstanding', 'instruction left account with an outstanding borrowed reference'],
  ['DuplicateAccountOutOfSync', 'instruction modifications of multiply-passed account differ'],
  ['InvalidError', 'program returned invalid error code'],
  ['ExecutableDataModified', 'instruction changed executable accounts data'],
  ['ExecutableLamportChange', 'instruction changed the balance of an executable account'],
  ['ExecutableAccountNotRentExempt', 'executable accounts must be rent exempt'],
  ['UnsupportedProgramId', 'Unsupported program id'],
  ['CallDepth', 'Cross-program invocation call depth too deep'],
  ['MissingAccount', 'An account required by the instruction is missing'],
  ['ReentrancyNotAllowed', 'Cross-program invocation reentrancy not allowed for this instruction'],
  ['MaxSeedLengthExceeded', 'Length of the seed is too long for address generation'],
  ['InvalidSeeds', 'Provided seeds do not result in a valid address'],
  ['InvalidRealloc', 'Failed to reallocate account data'],
  ['ComputationalBudgetExceeded', 'Computational budget exceeded'],
  ['PrivilegeEscalation', 'Cross-program invocation with unauthorized signer or writable account'],
  ['ProgramEnvironmentSetupFailure', 'Failed to create program execution environment'],
  ['ProgramFailedToComplete', 'Program failed to complete'],
  ['ProgramFailedToCompile', 'Program failed to compile'],
  ['Immutable', 'Account is immutable'],
  ['IncorrectAuthority', 'Incorrect authority provided'],
  ['AccountNotRentExempt', 'An account does not have enough lamports to be rent-exempt'],
  ['InvalidAccountOwner', 'Invalid account owner'],
  ['ArithmeticOverflow', 'Program arithmetic overflowed'],
  ['UnsupportedSysvar', 'Unsupported sysvar'],
  ['IllegalOwner', 'Provided owner is not allowed'],
  ['MaxAccountsDataAllocationsExceeded', 'Accounts data allocations exceeded the maximum allowed per transaction'],
  ['MaxAccountsExceeded', 'Max accounts exceeded'],
  ['MaxInstructionTraceLengthExceeded', 'Max instruction trace length exceeded'],
  ['BuiltinProgramsMustConsumeComputeUnits', 'Builtin programs must consume compute units'],
  ['BorshIoError', 'Failed to serialize or deserialize account data'],
];

const transactionDisplays = new Map(TRANSACTION_ERRORS);
const instructionDisplays = new Map(INSTRUCTION_ERRORS);

/** A LiteSVM InstructionError (number, or Custom / BorshIo object) as Solana's JSON. */
function instructionErrorJson(err) {
  if (typeof err === 'number') return INSTRUCTION_ERRORS[err]?.[0] ?? String(err);
  if ('code' in err) return { Custom: err.code };
  return { BorshIoError: err.msg };
}

/** A LiteSVM TransactionError (number or object) as Solana's JSON: "BlockhashNotFound", {"InstructionError": [0, {"Custom": 14}]}, ... */
export function transactionErrorJson(err) {
  if (typeof err === 'number') return TRANSACTION_ERRORS[err]?.[0] ?? String(err);
  switch (err.constructor.name) {
    case 'TransactionErrorInstructionError': return { InstructionError: [err.index, instructionErrorJson(err.err())] };
    case 'TransactionErrorDuplicateInstruction': return { DuplicateInstruction: err.index };
    case 'TransactionErrorInsufficientFundsForRent': return { InsufficientFundsForRent: { account_index: err.accountIndex } };
    default: return { ProgramExecutionTemporarilyRestricted: { account_index: err.accountIndex } };
  }
}

function instructionErrorDisplay(err) {
  if (typeof err === 'string') return instructionDisplays.get(err) ?? err;
  if ('Custom' in err) return `custom program error: 0x${err.Custom.toString(16)}`;
  return `${instructionDisplays.get('BorshIoError')}: ${err.BorshIoError}`;
}

/** Solana's Display text of a transaction error given as JSON (the `err` of a status). */
function transactionErrorDisplay(err) {
  if (typeof err === 'string') return transactionDisplays.get(err) ?? err;
  const [name, value] = Object.entries(err)[0];
  switch (name) {
    case 'InstructionError': return `Error processing Instruction ${value[0]}: ${instructionErrorDisplay(value[1])}`;
    case 'DuplicateInstruction': return `Transaction contains a duplicate instruction (${value}) that is not allowed`;
    case 'InsufficientFundsForRent':
      return `Transaction results in an account (${value.account_index}) with insufficient funds for rent`;
    default:
      return `Execution of the program referenced by account at index ${value.account_index} is temporarily restricted.`;
  }
}

/** simulateTransaction's value for an execution outcome of the chain. */
export const simulationValue = (outcome, replacementBlockhash = null) => ({
  err: outcome.err, logs: outcome.logs, accounts: null, unitsConsumed: outcome.unitsConsumed,
  returnData: outcome.returnData, innerInstructions: null, replacementBlockhash,
});

/** sendTransaction's -32002 error for a transaction refused before landing, with its simulation as data. */
export const preflightFailure = (outcome) => new RpcError(CODE.SEND_TRANSACTION_PREFLIGHT_FAILURE,
  `Transaction simulation failed: ${transactionErrorDisplay(outcome.err)}`, simulationValue(outcome));
