package dev.lomicontrol.operations;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.operations.api.OperationSpecs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The broker's dispatch is built from the declarations at start-up: a gap or a stray handler stops the start, naming the tool. */
class ToolHandlersTests {

    @Test
    void aDeclaredToolWithoutAHandlerStopsTheStart() {
        ToolHandlers handlers = new ToolHandlers();
        handlers.on(OperationSpecs.GET, (session, input) -> input);

        assertThatThrownBy(() -> handlers.requireCovers(List.of(OperationSpecs.GET, OperationSpecs.EVENTS)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no handler for [lomi_events_read]");
    }

    @Test
    void aHandlerForAToolOutsideTheCatalogStopsTheStart() {
        ToolHandlers handlers = new ToolHandlers();
        handlers.on(OperationSpecs.GET, (session, input) -> input);
        handlers.on(OperationSpecs.CANCEL, (session, input) -> input);

        assertThatThrownBy(() -> handlers.requireCovers(List.of(OperationSpecs.GET)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("handlers for unknown tools [lomi_operation_cancel]");
    }

    @Test
    void twoHandlersForOneToolAreAWiringError() {
        ToolHandlers handlers = new ToolHandlers();
        handlers.on(OperationSpecs.GET, (session, input) -> input);

        assertThatThrownBy(() -> handlers.on(OperationSpecs.GET, (session, input) -> input))
                .isInstanceOf(IllegalStateException.class);
    }
}
