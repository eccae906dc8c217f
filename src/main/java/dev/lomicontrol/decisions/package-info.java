/** Human decisions on operations awaiting the admin. Entry point: {@link dev.lomicontrol.decisions.DecisionBoard}. */
@NullMarked
package dev.lomicontrol.decisions;

import org.jspecify.annotations.NullMarked;
