package com.agentwallet.bootstrap;

import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.org.OrganisationService;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/** {@code create-org config.yml --name "Acme"}: a new organisation with a zero balance; prints its id. */
final class CreateOrganisationCommand extends OperatorCommand<OrganisationService> {

    CreateOrganisationCommand() {
        super("create-org", "Create an organisation and print its id", OrganisationService.class);
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser.addArgument("--name").required(true).help("the organisation's name");
    }

    @Override
    void execute(OrganisationService organisations, Namespace namespace, ServiceConfiguration configuration) {
        Organisation org = organisations.create(namespace.getString("name"));
        System.out.println(org.id().value());
    }
}
