/** The gate's main buttons: a large touch target (56 px high) with large text. */
export const big = 'min-h-14 rounded-xl px-4 text-lg font-semibold';
/** The bottom bar's four buttons, under the thumb: a quarter of the screen each, on one line. */
export const tool = 'min-h-14 whitespace-nowrap rounded-xl px-1 text-lg font-semibold';
