package dev.lomicontrol.testing;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.ToolSpec;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One agent on a broker made of real parts ({@link BrokerCallsFixture}): a paired session with the
 * full grant, connected to one project's default workspace (its retry epoch from {@code lomi_connect}),
 * numbering its own request keys. Every call goes through the broker's dispatcher, so arguments are
 * bound and validated exactly as a client's are. As a field with {@code @RegisterExtension} it opens
 * with the test instance (one per test method) and closes after the test:
 *
 * <pre>{@code @RegisterExtension final Agent agent = Agent.inProject("alpha");}</pre>
 */
public final class Agent implements AfterEachCallback, AutoCloseable {

    private final AtomicInteger keys = new AtomicInteger();
    private final BrokerCallsFixture broker;
    private final Session session;
    private final Project project;
    private final RetryEpochId epoch;

    private Agent(BrokerCallsFixture broker, String projectName) {
        this.broker = broker;
        this.project = broker.project(projectName);
        this.session = broker.session();
        this.epoch = broker.connect(session, project);
    }

    /** An agent on a new broker (in a temporary directory of its own) with one project of this name, connected to it. */
    public static Agent inProject(String projectName) {
        return new Agent(BrokerCallsFixture.inTemporaryDirectory(), projectName);
    }

    /** An agent on {@code broker} in a new project of this name (the broker is closed by whoever opened it). */
    public static Agent on(BrokerCallsFixture broker, String projectName) {
        return new Agent(broker, projectName);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /** Closes the broker this agent opened (and its temporary directory). */
    @Override
    public void close() {
        broker.close();
    }

    public BrokerCallsFixture broker() {
        return broker;
    }

    public Session session() {
        return session;
    }

    public Project project() {
        return project;
    }

    public RetryEpochId epoch() {
        return epoch;
    }

    /** The project's default workspace id. */
    public String workspace() {
        return BrokerCallsFixture.workspaceOf(project());
    }

    /** A request key this agent has not used: {@code prefix-N}. */
    public String key(String prefix) {
        return prefix + "-" + keys.incrementAndGet();
    }

    /** A second session with {@code grant} on the same broker (another agent, or a narrower one). */
    public Session otherSession(Grant grant) {
        return broker().session(grant);
    }

    /** The raw envelope of a call whose arguments are name/value pairs ({@link BrokerCallsFixture#json}). */
    public JsonNode call(String tool, Object... pairs) {
        return broker().call(session(), tool, BrokerCallsFixture.json(pairs));
    }

    /** The data of a call that must succeed. */
    public JsonNode ok(String tool, Object... pairs) {
        return broker().ok(session(), tool, BrokerCallsFixture.json(pairs));
    }

    /** The error code of a call that must fail (its message is checked to be there). */
    public ErrorCode refused(String tool, Object... pairs) {
        return broker().refused(session(), tool, BrokerCallsFixture.json(pairs));
    }

    /**
     * The data of a durable call that must be answered: the pairs plus this agent's {@code retryEpoch}
     * and a fresh {@code requestKey} named after the tool.
     */
    public JsonNode op(String tool, Object... pairs) {
        return ok(tool, durable(tool, pairs));
    }

    /** As {@link #op}, for a durable call that must be refused. */
    public ErrorCode opRefused(String tool, Object... pairs) {
        return refused(tool, durable(tool, pairs));
    }

    /** The data of a call made with a typed input record, encoded as a client would send it. */
    public <I> JsonNode ok(ToolSpec<I> spec, I input) {
        return broker().ok(session(), spec.name(), Encoder.encode(input).toString());
    }

    /** The error code of a typed call that must fail. */
    public <I> ErrorCode refused(ToolSpec<I> spec, I input) {
        return broker().refused(session(), spec.name(), Encoder.encode(input).toString());
    }

    /** Polls the operation until it settles (or awaits the admin) within {@code within}. */
    public JsonNode settled(String operationId, Duration within) {
        return broker().settled(session(), operationId, within);
    }

    private Object[] durable(String tool, Object... pairs) {
        Object[] all = java.util.Arrays.copyOf(pairs, pairs.length + 4);
        all[pairs.length] = "retryEpoch";
        all[pairs.length + 1] = epoch().value();
        all[pairs.length + 2] = "requestKey";
        all[pairs.length + 3] = key(tool.replaceFirst("^lomi_", ""));
        return all;
    }

    /** A JSON object node from name/value pairs, for arguments that nest. */
    public static ObjectNode object(Object... pairs) {
        return (ObjectNode) BrokerCallsFixture.JSON.readTree(BrokerCallsFixture.json(pairs));
    }
}
