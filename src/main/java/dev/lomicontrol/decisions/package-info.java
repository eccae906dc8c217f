/** Human decisions on operations awaiting the admin. Entry point: {@link dev.lomicontrol.decisions.DecisionBoard}. */
package dev.lomicontrol.decisions;
