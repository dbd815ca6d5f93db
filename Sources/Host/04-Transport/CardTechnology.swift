/// The card's technology, told by the ATR the reader built (`ATRVerdict`) or, for an ATR of no
/// known form, by the card's answer to a FeliCa Polling (`CardSession.identify`).
package enum CardTechnology: String {
    case felica, iso7816
}
