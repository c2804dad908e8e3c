package com.agentwallet.adapters.mcp;

import com.agentwallet.core.common.ValidationException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The Model Context Protocol server at {@value #PATH}: the SDK's streamable HTTP transport in its
 * stateless form (every POST is answered on its own, with JSON), behind the {@link AgentGate}. No
 * session lives in one server process, so any process of a deployment answers any request, as for
 * /v1. The SDK speaks JSON through its own plain Jackson 2 mapper: the protocol's field names are
 * camelCase, unlike /v1's.
 */
public final class McpEndpoint {
    public static final String PATH = "/mcp";
    static final String AGENT = "agent";
    private static final String INSTRUCTIONS = """
            Tools over one USDC wallet, the one your session token belongs to. Amounts are decimal strings of \
            USDC. Read get_wallet before planning payments; check_payment tells whether a payment would pass \
            without making it. pay needs an idempotency_key: a new one per intended payment, the same one on every \
            retry of it. A payment at or above the co-sign threshold answers pending_co_sign: an operator approves \
            it in the dashboard; follow it with get_payment.""";

    private final AgentGate gate;
    private final HttpServletStatelessServerTransport transport;
    private final McpStatelessSyncServer server;

    public McpEndpoint(WalletTools tools, AgentGate gate, int maxRequestBytes) {
        requireNonNull(tools, "tools is null");
        this.gate = requireNonNull(gate, "gate is null");
        ObjectMapper protocolJson = new ObjectMapper();
        McpJsonMapper json = new JacksonMcpJsonMapper(protocolJson);
        this.transport = HttpServletStatelessServerTransport.builder().jsonMapper(json).messageEndpoint(PATH)
                .contextExtractor(request -> McpTransportContext.create(
                        Map.of(AGENT, request.getAttribute(AgentGate.AGENT_ATTRIBUTE))))
                .maxRequestSize(maxRequestBytes)
                .build();
        this.server = McpServer.sync(transport)
                .serverInfo("agent-wallet", Optional.ofNullable(McpEndpoint.class.getPackage().getImplementationVersion())
                        .orElse("development"))
                .instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .jsonMapper(json)
                .jsonSchemaValidator(new DefaultJsonSchemaValidator(protocolJson))
                .tools(specifications(tools, json))
                .build();
    }

    /** Checks each request's session token and rate limit before the MCP server reads it. */
    public Filter gate() {
        return gate;
    }

    /** The servlet to mount at {@value #PATH}. */
    public HttpServlet servlet() {
        return transport;
    }

    /** The tools as the server lists them. */
    public List<McpSchema.Tool> tools() {
        return server.listTools();
    }

    private static List<SyncToolSpecification> specifications(WalletTools tools, McpJsonMapper json) {
        return ToolCatalog.TOOLS.stream().map(entry -> SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(entry.name()).title(entry.title())
                        .description(entry.description()).inputSchema(json, entry.inputSchema()).build())
                .callHandler((context, request) -> call(tools, entry, context, request.arguments()))
                .build()).toList();
    }

    private static CallToolResult call(WalletTools tools, ToolCatalog.Entry entry, McpTransportContext context,
                                       Map<String, Object> arguments) {
        try {
            return entry.handler().call(tools, (Agent) context.get(AGENT), new Arguments(arguments));
        } catch (ValidationException e) {
            return Answers.invalid(e);
        }
    }
}
