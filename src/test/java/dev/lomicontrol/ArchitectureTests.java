package dev.lomicontrol;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Keeps the module graph honest: dependencies point inward and internals stay internal. */
class ArchitectureTests {

    static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = ModuleRulesTests.importProduction();
    }

    @Test
    void coreDependsOnNoOtherModule() {
        classes()
                .that()
                .resideInAPackage("dev.lomicontrol.core..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "dev.lomicontrol.core..", "java..", "com.sun.security..", "org.jspecify.annotations..")
                .check(production);
    }

    /**
     * The {@code --mcp} helper runs on a class path of a few libraries only ({@code bin/helper-layout}:
     * {@code helper_jars}), so its packages may use nothing else: a class from another jar would be missing
     * in the helper at run time. The helper's packages are the ones it loads (the tool declarations under
     * {@code tools}, never the broker's implementations). Netty and Reactor are not on it: the broker's side of
     * the transport ({@link #BROKER_TRANSPORT}) is theirs, and nothing of the helper may reach it.
     */
    @Test
    void theHelperUsesOnlyTheLibrariesOnItsClassPath() {
        String[] helperPackages = {
            "dev.lomicontrol.mcp..",
            "dev.lomicontrol.ipc..",
            "dev.lomicontrol.transport..",
            "dev.lomicontrol.discovery..",
            "dev.lomicontrol.core..",
            "dev.lomicontrol.json..",
            "dev.lomicontrol.tools..",
            "dev.lomicontrol.catalog..",
            "dev.lomicontrol.*.api.."
        };
        List<String> allowed = new ArrayList<>(List.of(helperPackages));
        allowed.addAll(List.of(
                "java..",
                "javax..",
                "jdk.net..",
                "com.sun.security..",
                "tools.jackson..",
                "com.fasterxml.jackson.annotation..",
                "org.bouncycastle..",
                "org.slf4j..",
                "org.jspecify.annotations.."));
        DescribedPredicate<JavaClass> brokerTransport = DescribedPredicate.describe(
                "the broker's Netty transport " + BROKER_TRANSPORT,
                javaClass -> BROKER_TRANSPORT.contains(javaClass.getName().replaceAll("\\$.*", "")));
        classes()
                .that()
                .resideInAnyPackage(helperPackages)
                .and(DescribedPredicate.not(brokerTransport))
                .should()
                .onlyDependOnClassesThat(JavaClass.Predicates.resideInAnyPackage(allowed.toArray(String[]::new))
                        .and(DescribedPredicate.not(brokerTransport)))
                .check(production);
    }

    /** The transport classes only the broker loads: its Netty server side. */
    static final List<String> BROKER_TRANSPORT = List.of(
            "dev.lomicontrol.transport.UnixSocketServer",
            "dev.lomicontrol.transport.NettyFrameChannel",
            "dev.lomicontrol.transport.InboundBuffer",
            "dev.lomicontrol.transport.TlsSwitch");

    @Test
    void theLedgerSeesOnlyTheCoreOfOurModules() {
        noClasses()
                .that()
                .resideInAPackage("dev.lomicontrol.ledger..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.lomicontrol.broker..",
                        "dev.lomicontrol.mcp..",
                        "dev.lomicontrol.transport..",
                        "dev.lomicontrol.console..",
                        "dev.lomicontrol.pairing..")
                .check(production);
    }

    @Test
    void ledgerInternalsAreReachedOnlyThroughTheLedgerModule() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.lomicontrol.ledger..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.lomicontrol.ledger.internal..")
                .check(production);
    }

    /**
     * Two exceptions: the MCP helper's single stdout writer, which puts one whole JSON-RPC frame per
     * line on stdout (and points System.out at stderr for everyone else), and the console client's
     * output class: {@code lomi-control console} is a separate process whose stdout is the admin's
     * terminal, never an MCP stream.
     */
    @Test
    void stdoutBelongsToMcpSoNoProductionClassWritesToIt() {
        noClasses()
                .that()
                .doNotHaveFullyQualifiedName("dev.lomicontrol.console.ConsoleOutput")
                .and()
                .doNotHaveFullyQualifiedName("dev.lomicontrol.mcp.StdoutWriter")
                .should()
                .accessField(System.class, "out")
                .check(production);
    }
}
