# Тексты страницы и сервера по-русски. Те же сообщения, что в en.ftl. Нотация (a1-h8, c3-d4,
# e5:c3) не переводится.

## Рамка страницы: заголовок, настройки, несуществующие страницы

site-name = Башни
nav-lobby = Лобби
nav-tournaments = Турниры
nav-new-game = Новая партия
nav-study = Доска для анализа
nav-leaderboard = Рейтинг
needs-javascript = Для этой страницы нужен JavaScript.
page-not-found = Страница не найдена
page-not-found-back = На главную страницу

settings = Настройки
settings-page-colours = Цвета страницы
settings-scheme-system = Как в системе
settings-scheme-light = Светлые
settings-scheme-dark = Тёмные
settings-board-colours = Цвета доски
settings-board-wood = Дерево
settings-board-green = Зелёная
settings-board-grey = Серая
settings-board-size = Размер доски
settings-sounds = Звуки
settings-language = Язык

## Ответы сервера на отклонённые запросы

error-too-many-requests = слишком много запросов с вашего адреса; помедленнее
error-too-many-open = слишком много запросов с вашего адреса выполняется сразу; помедленнее
error-body-too-slow = запрос пришёл слишком медленно; отправьте его ещё раз
error-not-logged-in = вы не вошли (или ваш сеанс закончился)
error-wrong-login = неверное имя или пароль
error-name-taken = имя { $name } занято; выберите другое
error-name-looks-taken = имя { $name } слишком похоже на занятое имя { $taken }; выберите другое
error-wrong-password = неверный пароль; учётная запись не удалена

## Главная страница

home-new-game = Новая партия
home-play = Играть
home-mode-engine = С компьютером
home-mode-friend = С другом (по ссылке-приглашению)
home-mode-local = Вдвоём за одним экраном
home-game = Игра
home-variant-bashni = Башни (столбовые шашки)
home-variant-russian = Русские шашки
home-level = Уровень компьютера
home-colour = Ваш цвет
home-colour-white = Белые
home-colour-black = Чёрные
home-colour-random = Случайно
home-clock = Часы
home-correspondence = По переписке (дни на ход)
home-days =
    { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[many] { $days } дней
    }
home-days-per-move = Дней на ход
home-days-per-move-hint = Столько может длиться каждый ход. Неиспользованное время не переносится.
home-your-name = Ваше имя
home-first-player-name = Имя первого игрока (белые)
home-second-player = Второй игрок
home-second-player-name = Имя второго игрока
home-account-name = Имя вашей учётной записи.
home-rated = На рейтинг
home-start = Начать партию
home-pdn-title = Открыть записи партий (PDN)
home-pdn-file = Файл PDN
home-pdn-paste = Или вставьте сюда текст PDN
home-pdn-upload = Загрузить
home-pdn-nothing = Выберите файл или вставьте текст PDN.
home-pdn-none-found = В тексте не найдено ни одной партии.
home-pdn-game = Партия { $number }
home-pdn-game-error = Партия { $number }: { $error }
home-pdn-unreadable = не читается
home-your-games = Ваши партии
home-your-games-none = Пока нет.
home-live-games = Идут сейчас
home-live-games-none = Сейчас никто не играет.
home-finished-games = Сыгранные партии
home-finished-games-none = Партий пока нет.
home-records = Записи партий
home-records-none = Записей пока не загружали.
home-loading = Загрузка…
home-more = Ещё
home-lobby-title = Сыграть с человеком
home-lobby-text = Найдите соперника в лобби: примите вызов или сделайте свой.
home-lobby-link = В лобби
home-study-title = Анализ
home-study-text = Расставьте любую позицию, стройте башни, смотрите варианты и спрашивайте компьютер.
home-study-link = Открыть доску для анализа

## Партия в списке

game-item-white = Белые
game-item-black = Чёрные
game-item-in-play = идёт
game-item-aborted = прервана
game-item-moves =
    { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[many] { $moves } ходов
    }
