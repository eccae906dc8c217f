package dev.lomicontrol.episodes;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The episodes module sees only the core and the ledger of our modules; no transport, pairing or adapter types. */
class EpisodesArchitectureTests {

    @Test
    void episodesDependOnlyOnCoreAndLedger() {
        JavaClasses production = new ClassFileImporter()
                .withImportOption(location -> !location.contains("/test-classes/"))
                .importPackages("dev.lomicontrol.episodes");

        // the engine; its tool adapter (episodes.tools) follows its own row of ModuleRulesTests
        noClasses()
                .that()
                .resideInAPackage("dev.lomicontrol.episodes..")
                .and()
                .resideOutsideOfPackage("dev.lomicontrol.episodes.tools..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.lomicontrol.broker..",
                        "dev.lomicontrol.pairing..",
                        "dev.lomicontrol.transport..",
                        "dev.lomicontrol.mcp..",
                        "dev.lomicontrol.console..",
                        "dev.lomicontrol.projects..",
                        "dev.lomicontrol.ipc..",
                        "dev.lomicontrol.ledger.internal..")
                .check(production);
    }
}
