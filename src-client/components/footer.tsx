export function Footer() {
  return (
    <footer className="border-t border-gray-200 bg-gray-50 px-4 py-6 text-center text-sm text-gray-600">
      © 2025 Jalsa
    </footer>
  );
}
