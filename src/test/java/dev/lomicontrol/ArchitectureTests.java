package dev.lomicontrol;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Keeps the module graph honest: dependencies point inward and internals stay internal. */
class ArchitectureTests {

    static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("/test-classes/"))
                .importPackages("dev.lomicontrol");
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
