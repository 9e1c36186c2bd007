import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/**
 * The QR code of a ticket, drawn in the browser from the signed token the server sent with the booking
 * (never a stored image), so gate staff can scan it from a phone screen or a print-out.
 */
export function TicketQr({
  token,
  bookingId,
  size = 176,
}: {
  token: string;
  bookingId: string;
  size?: number;
}) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(token, { errorCorrectionLevel: 'M', margin: 2, scale: 8 })
      .then((url) => {
        if (current) setSrc(url);
      })
      .catch(() => {
        if (current) setSrc(null);
      });
    return () => {
      current = false;
    };
  }, [token]);

  return (
    <div className="inline-block bg-white" style={{ width: size, height: size }}>
      {src && (
        <img
          src={src}
          alt={`QR code for booking ${bookingId}`}
          width={size}
          height={size}
          data-testid="ticket-qr"
          className="block [image-rendering:pixelated]"
        />
      )}
    </div>
  );
}
