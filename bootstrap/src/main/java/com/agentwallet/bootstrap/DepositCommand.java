package com.agentwallet.bootstrap;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.org.OrganisationService;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code deposit config.yml --org org_... --amount 1000.00}: mints USDC into an organisation's
 * treasury. Only the simulator can mint; on a real ledger deposits arrive by transfer.
 */
final class DepositCommand extends OperatorCommand<OrganisationService> {
    static final String SIMULATOR = "sim";

    DepositCommand() {
        super("deposit", "Deposit USDC to an organisation (simulator ledger only)", OrganisationService.class);
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser.addArgument("--org").required(true).help("the organisation id (org_...)");
        subparser.addArgument("--amount").required(true).help("USDC as a decimal string, e.g. 1000.00");
    }

    @Override
    void execute(OrganisationService organisations, Namespace namespace, ServiceConfiguration configuration) {
        if (!SIMULATOR.equals(configuration.getLedger().type())) {
            throw new CommandFailed("deposit mints USDC, which only the simulator ledger can; this configuration uses '"
                    + configuration.getLedger().type() + "'");
        }
        Organisation org = orFail(organisations.deposit(
                ApiKeyCommands.orgId(namespace), Usdc.parsePositive(namespace.getString("amount"), "amount")));
        System.out.println(org.id().value() + " balance " + org.balance() + " USDC");
    }
}
