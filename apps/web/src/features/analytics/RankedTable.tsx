/** A top list as a plain table: the figures themselves, readable by everyone. */
export function RankedTable({
  title,
  label,
  rows,
  empty,
}: {
  title: string
  label: string
  rows: Array<{ name: string; count: number }>
  empty: string
}) {
  return (
    <section className="analytics-ranked" aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{label}</th>
              <th scope="col">Count</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.name}>
                <th scope="row">{row.name}</th>
                <td>{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
