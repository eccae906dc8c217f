package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.tools.Decimal;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** The engine's optional numbers in the form the terminal results carry them (null on the wire when absent). */
final class WireValues {

    private WireValues() {}

    static Optional<Integer> boxed(OptionalInt value) {
        return value.isPresent() ? Optional.of(value.getAsInt()) : Optional.empty();
    }

    static Optional<Decimal> decimal(OptionalLong value) {
        return value.isPresent() ? Optional.of(Decimal.of(value.getAsLong())) : Optional.empty();
    }
}
